/* SPDX-License-Identifier: BSD-2-Clause */
/* io_net.h - constants shared by the ibsim .net reader and writer (internal) */
#ifndef FFROUTE_IO_NET_H
#define FFROUTE_IO_NET_H

#define NET_LINE_MAX 254	/* longest line ibsim 0.10 reads in one piece */
#define NET_DESC_MAX 63		/* sizeof(Node.nodedesc) - 1 */

/* ibsim's enabled-mask bits */
#define W_1X 1u
#define W_4X 2u
#define W_8X 4u
#define W_12X 8u
#define W_2X 16u
#define S_SDR 1u
#define S_DDR 2u
#define S_QDR 4u
#define E_FDR 1u
#define E_EDR 2u
#define E_HDR 4u

#endif
