/* cmd_convert.c - placeholder */
