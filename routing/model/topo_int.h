/* SPDX-License-Identifier: BSD-2-Clause */
/* topo_int.h - internals shared by topo.c and topo_build.c */
#ifndef FFROUTE_TOPO_INT_H
#define FFROUTE_TOPO_INT_H

#include <stdarg.h>
#include <stdio.h>

#include <ffroute/topo.h>

/** topo_alloc_arrays - allocate every node/port array of @t (zeroed) */
int topo_alloc_arrays(struct topo *t, uint32_t nnodes, uint32_t nports, uint32_t nstrs);

#endif
