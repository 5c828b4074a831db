/* cmd_info.c - placeholder */
