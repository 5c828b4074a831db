// SPDX-License-Identifier: BSD-2-Clause
/*
 * verbs_run.c - --verbs: queue pairs to the tree neighbours, the TCP
 * bootstrap through rank 0 (an all-gather of fixed-size, big-endian
 * records: LID, QP number, rkey and region addresses), then the timed
 * allreduce, its bandwidth and the check of the sum.
 */
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "verbs_int.h"

struct rec_peer { uint32_t peer, qpn, rkey, pad; uint64_t raddr[4]; };
struct rec { uint32_t rank, lid, npeer, pad; struct rec_peer e[MAXPEER]; };

static int io_all(int fd, void *buf, size_t len, bool wr)
{
	char *p = buf;

	while (len) {
		ssize_t k = wr ? write(fd, p, len) : read(fd, p, len);

		if (k <= 0)
			return k < 0 ? -errno : -ECONNRESET;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

static int tcp_connect(const char *host, int port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	char ps[16];

	snprintf(ps, sizeof(ps), "%d", port);
	for (int tries = 0; tries < 600; tries++) {	/* 60 s for rank 0 to listen */
		if (getaddrinfo(host, ps, &hints, &ai) == 0) {
			for (struct addrinfo *a = ai; a; a = a->ai_next) {
				int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);

				if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
					freeaddrinfo(ai);
					return fd;
				}
				if (fd >= 0)
					close(fd);
			}
			freeaddrinfo(ai);
		}
		usleep(100000);
	}
	fprintf(stderr, "hfreduce-check: cannot reach rank 0 at %s:%d\n", host, port);
	return -1;
}

/* All-gather of @mine through rank 0; @fd[] keeps the connections for barriers. */
static int allgather(const char *host0, int port, uint32_t me, uint32_t n, const struct rec *mine,
		     struct rec *all, int *fd)
{
	int rc = 0;

	all[me] = *mine;
	if (me) {
		if ((fd[0] = tcp_connect(host0, port)) < 0)
			return -EHOSTUNREACH;
		rc = io_all(fd[0], (void *)mine, sizeof(*mine), true);
		return rc ? rc : io_all(fd[0], all, n * sizeof(*all), false);
	}
	int one = 1, ls = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };

	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, (int)n))
		return fail("listen");
	for (uint32_t i = 1; i < n && !rc; i++) {
		struct rec r;

		if ((fd[i] = accept(ls, NULL, NULL)) < 0)
			rc = fail("accept");
		else if (!(rc = io_all(fd[i], &r, sizeof(r), false)) && be32toh(r.rank) < n)
			all[be32toh(r.rank)] = r;
	}
	close(ls);
	for (uint32_t i = 1; i < n && !rc; i++)
		rc = io_all(fd[i], all, n * sizeof(*all), true);
	return rc;
}

static int barrier(uint32_t me, uint32_t n, int *fd)
{
	char b = 0;
	int rc = 0;

	if (me)
		return io_all(fd[0], &b, 1, true) ?: io_all(fd[0], &b, 1, false);
	for (uint32_t i = 1; i < n && !rc; i++)
		rc = io_all(fd[i], &b, 1, false);
	for (uint32_t i = 1; i < n && !rc; i++)
		rc = io_all(fd[i], &b, 1, true);
	return rc;
}

static int qp_up(struct vctx *v, struct peer *p, uint32_t qpn, uint16_t lid)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = (uint8_t)v->port,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };

	if (ibv_modify_qp(p->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return fail("ibv_modify_qp INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_4096;
	a.dest_qp_num = qpn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.dlid = lid;
	if (v->lmc_spread && v->lmc)	/* the path through the LMC range this pair uses */
		a.ah_attr.dlid = (uint16_t)(lid + (p->rank + v->lid) % (1u << v->lmc));
	a.ah_attr.port_num = (uint8_t)v->port;
	if (ibv_modify_qp(p->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return fail("ibv_modify_qp RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(p->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		return fail("ibv_modify_qp RTS");
	return 0;
}

/* Regions, MRs, CQ, QPs and pre-posted receives; @mine gets what peers need. */
static int setup(struct vctx *v, void *data, uint64_t bytes, const unsigned *slots,
		 uint32_t recvs_per_slot, struct rec *mine, uint32_t me)
{
	uint64_t nreg = 0;

	for (unsigned i = 0; i < v->npeer; i++)
		nreg += (uint64_t)__builtin_popcount(slots[i]);
	if (!(v->recv = calloc(nreg ? nreg : 1, v->half ? v->half : 1)))
		return -ENOMEM;
	v->data_mr = ibv_reg_mr(v->pd, data, bytes, IBV_ACCESS_LOCAL_WRITE);
	v->recv_mr = ibv_reg_mr(v->pd, v->recv, (nreg ? nreg : 1) * (v->half ? v->half : 1),
				IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!v->data_mr || !v->recv_mr)
		return fail("ibv_reg_mr");
	v->cq = ibv_create_cq(v->ctx, (int)(v->npeer * (recvs_per_slot * 4 + 520)), NULL, NULL, 0);
	if (!v->cq)
		return fail("ibv_create_cq");
	*mine = (struct rec){ htobe32(me), htobe32(v->lid), htobe32(v->npeer), 0, { { 0 } } };
	for (unsigned i = 0, k = 0; i < v->npeer; i++) {
		struct peer *p = &v->peer[i];
		struct ibv_qp_init_attr qa = { .send_cq = v->cq, .recv_cq = v->cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 520, .max_recv_wr = recvs_per_slot * 4 + 8,
				 .max_send_sge = 1, .max_recv_sge = 1 } };

		if (!(p->qp = ibv_create_qp(v->pd, &qa)))
			return fail("ibv_create_qp");
		mine->e[i] = (struct rec_peer){ htobe32(p->rank), htobe32(p->qp->qp_num),
						htobe32(v->recv_mr->rkey), 0, { 0 } };
		for (unsigned s = 0; s < 4; s++)
			if (slots[i] & (1u << s)) {
				p->region[s] = v->recv + v->half * k++;
				mine->e[i].raddr[s] = htobe64((uintptr_t)p->region[s]);
			}
		for (uint32_t r = 0; r < recvs_per_slot * (uint32_t)__builtin_popcount(slots[i]); r++) {
			struct ibv_recv_wr wr = { .wr_id = i }, *bad;

			if ((errno = ibv_post_recv(p->qp, &wr, &bad)))
				return fail("ibv_post_recv");
		}
	}
	return 0;
}

/* Connect each QP with what its peer published for me. */
static int connect_all(struct vctx *v, const struct rec *all, uint32_t n, uint32_t me)
{
	for (unsigned i = 0; i < v->npeer; i++) {
		struct peer *p = &v->peer[i];
		const struct rec *r = &all[p->rank];
		int rc = -EPROTO;

		if (p->rank >= n)
			return -EPROTO;
		for (uint32_t k = 0; k < be32toh(r->npeer) && k < MAXPEER; k++) {
			const struct rec_peer *e = &r->e[k];

			if (be32toh(e->peer) != me)
				continue;
			for (unsigned s = 0; s < 4; s++)
				p->raddr[s] = be64toh(e->raddr[s]);
			p->rkey = be32toh(e->rkey);
			rc = qp_up(v, p, be32toh(e->qpn), (uint16_t)be32toh(r->lid));
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int my_rank(const struct hfr_cli *o, char **host, uint32_t n)
{
	char name[256] = "";

	if (o->rank >= 0)
		return o->rank < (int)n ? o->rank : -1;
	gethostname(name, sizeof(name) - 1);
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(host[i], name))
			return (int)i;
	fprintf(stderr, "hfreduce-check: this host (%s) is not in --hosts: give --rank\n", name);
	return -1;
}

int hfr_verbs_run(struct vctx *v, const struct hfr_cli *o)
{
	char *list = strdup(o->hosts), *host[1024], *save = NULL;
	size_t es = hfr_dtype_size(o->dtype);
	uint64_t nel = o->size / es, bad;
	uint32_t n = 0;
	unsigned slots[MAXPEER] = { 0 };
	struct hfr_half h[2];
	struct rec mine, *all = NULL;
	int fd[1024], me, rc;
	struct timespec a, b;
	void *data = NULL;
	struct hfr_steps *st = NULL;
	char who[32];
	double secs;

	memset(fd, -1, sizeof(fd));
	for (char *t = list ? strtok_r(list, ",", &save) : NULL; t && n < 1024; t = strtok_r(NULL, ",", &save))
		host[n++] = t;
	me = n >= 2 ? my_rank(o, host, n) : -1;
	if (me < 0) {
		fprintf(stderr, "hfreduce-check: --hosts needs 2 to 1024 hosts including this one\n");
		free(list);
		return 2;
	}
	hfr_halves(nel, o->chunk / es, h);
	v->half = h[0].count * es;
	rc = neighbours(v, (uint32_t)me, n, slots);
	if (!rc && (!(v->pd = ibv_alloc_pd(v->ctx)) || !(data = malloc(nel * es)) ||
		    !(all = calloc(n, sizeof(*all))) ||
		    !(st = hfr_steps_new(hfr_iterations(nel, o->chunk / es)))))
		rc = v->pd ? -ENOMEM : fail("ibv_alloc_pd");
	if (!rc) {
		hfr_fill(o->dtype, data, (uint32_t)me, nel);
		rc = setup(v, data, nel * es, slots, h[0].nchunks, &mine, (uint32_t)me);
	}
	if (!rc)
		rc = allgather(host[0], o->tcp_port, (uint32_t)me, n, &mine, all, fd);
	if (!rc)
		rc = connect_all(v, all, n, (uint32_t)me) ?: barrier((uint32_t)me, n, fd);
	if (!rc) {
		struct hfr_xport x = { .ctx = v, .rank = (uint32_t)me, .nranks = n, .steps = st,
				       .put = v_put, .wait = v_wait, .flush = v_flush };

		clock_gettime(CLOCK_MONOTONIC, &a);
		rc = hfr_allreduce(&x, o->dtype, data, nel, o->chunk / es);
		clock_gettime(CLOCK_MONOTONIC, &b);
		rc = rc ?: barrier((uint32_t)me, n, fd);
	}
	if (!rc) {
		bad = hfr_verify(o->dtype, data, n, nel);
		secs = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
		printf("rank %d/%u: allreduce of %llu bytes in %.6f s: %.2f GB/s algorithm bandwidth; "
		       "%llu wrong elements\n", me, n, (unsigned long long)(nel * es), secs,
		       nel * es / secs / 1e9, (unsigned long long)bad);
		snprintf(who, sizeof(who), "rank %d", me);
		hfr_steps_print(stdout, who, st, o->steps);
		rc = bad ? 1 : 0;
	} else {
		fprintf(stderr, "hfreduce-check: rank %d: %s\n", me, strerror(-rc));
		rc = 2;
	}
	for (uint32_t i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	free(all);
	free(data);
	free(list);
	hfr_steps_free(st);
	return rc;
}

void hfr_verbs_close(struct vctx *v)
{
	for (unsigned i = 0; i < v->npeer; i++)
		if (v->peer[i].qp)
			ibv_destroy_qp(v->peer[i].qp);
	if (v->cq)
		ibv_destroy_cq(v->cq);
	if (v->data_mr)
		ibv_dereg_mr(v->data_mr);
	if (v->recv_mr)
		ibv_dereg_mr(v->recv_mr);
	free(v->recv);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx)
		ibv_close_device(v->ctx);
}
