/* SPDX-License-Identifier: BSD-2-Clause */
/* osm_ffroute.h - the OpenSM adapter's internal interface */
#ifndef FFROUTE_OSM_FFROUTE_H
#define FFROUTE_OSM_FFROUTE_H

#include <ffroute/diag.h>
#include <ffroute/topo.h>

struct osm_opensm;

/**
 * ffr_osm_topo - build a struct topo from OpenSM's subnet (lock held)
 * Return: the fabric, or NULL with errno set (problems recorded in @dl).
 */
struct topo *ffr_osm_topo(struct osm_opensm *osm, struct diag_list *dl);

#endif
