// SPDX-License-Identifier: BSD-2-Clause
/*
 * main.c - hfreduce-check: the command line of the HFReduce harness.
 *   --paths DIR | --topo F --lft F | --live   path mode (the model)
 *   --local N                                  the allreduce over N threads
 *   --verbs --hosts h1,h2,...                  the allreduce over RDMA
 * Exit: 0 ok, 1 --strict and the routing costs bandwidth (or a local run
 * gave a wrong sum), 2 bad input or usage, 77 no RDMA device (--verbs).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "hfrcli.h"
#include "paths.h"

static void usage(FILE *fp)
{
	fputs("usage: hfreduce-check --paths DIR [--job J] [--size S] [--chunk C] [--dtype f32|bf16]\n"
	      "                      [--lmc-spread] [--no-ring] [--summary] [--trace STEP] [--strict]\n"
	      "       hfreduce-check --topo F --lft F [...] | --live [--ca NAME] [--port N] [...]\n"
	      "       hfreduce-check --local N [--size S] [--chunk C] [--dtype f32|bf16] [--steps]\n"
	      "       hfreduce-check --verbs --hosts h1,h2,... [--rank R] [--tcp-port P] [--dev NAME]\n"
	      "                      [--ib-port N] [--size S] [--chunk C] [--dtype f32|bf16] [--lmc-spread]\n"
	      "                      [--steps]\n"
	      "\n"
	      "HFReduce's double binary tree allreduce over the routed paths (path mode),\n"
	      "over threads (--local) or over RDMA (--verbs).  J: zone:Z, hosts:FILE,\n"
	      "random:K[:SEED] (default: the compute HCAs of the first zone).  S, C: bytes,\n"
	      "K/M/G suffixes (defaults 256M and 4M).  See man hfreduce-check.\n", fp);
}

int hfr_parse_size(const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || errno || arg[0] == '-')
		return -EINVAL;
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	default: break;
	}
	if (*end || !v || v > (1ull << 40))
		return -EINVAL;
	*out = v;
	return 0;
}

enum { O_PATHS = 256, O_TOPO, O_LFT, O_LIVE, O_CA, O_PORT, O_JOB, O_SIZE, O_CHUNK, O_DTYPE,
       O_LMC, O_NORING, O_SUMMARY, O_STRICT, O_LOCAL, O_VERBS, O_HOSTS, O_RANK, O_TCP, O_DEV,
       O_IBPORT, O_SL, O_ROLES, O_TRACE, O_STEPS };

static int parse_one(int c, struct hfr_cli *o)
{
	char *end;
	long v;

	switch (c) {
	case O_PATHS: o->in.dir = optarg; o->mode = MODE_PATHS; return 0;
	case O_TOPO: o->in.topo = optarg; o->mode = MODE_PATHS; return 0;
	case O_LFT: o->in.lft = optarg; o->mode = MODE_PATHS; return 0;
	case O_LIVE: o->in.live = true; o->mode = MODE_PATHS; return 0;
	case O_CA: o->in.ca = optarg; return 0;
	case O_SL: o->in.sl = optarg; return 0;
	case O_ROLES: o->in.roles = optarg; return 0;
	case O_JOB:
		if (job_parse(optarg, &o->job))
			return -1;
		o->in.job = o->job.hosts;	/* hosts:FILE is read with the fabric */
		return 0;
	case O_SIZE: return hfr_parse_size(optarg, &o->size) ? -1 : 0;
	case O_CHUNK: return hfr_parse_size(optarg, &o->chunk) ? -1 : 0;
	case O_DTYPE:
		if (!strcmp(optarg, "f32") || !strcmp(optarg, "float32"))
			o->dtype = HFR_F32;
		else if (!strcmp(optarg, "bf16") || !strcmp(optarg, "bfloat16"))
			o->dtype = HFR_BF16;
		else
			return -1;
		return 0;
	case O_LMC: o->lmc_spread = true; return 0;
	case O_NORING: o->no_ring = true; return 0;
	case O_SUMMARY: o->summary = true; return 0;
	case O_STRICT: o->strict = true; return 0;
	case O_STEPS: o->steps = true; return 0;
	case O_VERBS: o->mode = MODE_VERBS; return 0;
	case O_HOSTS: o->hosts = optarg; return 0;
	case O_DEV: o->dev = optarg; return 0;
	case O_TRACE:
		errno = 0;
		v = strtol(optarg, &end, 10);
		if (*end || errno || v < 0 || v > INT32_MAX || !*optarg)
			return -1;
		o->trace = (int)v;
		return 0;
	case O_LOCAL: case O_RANK: case O_TCP: case O_IBPORT: case O_PORT:
		errno = 0;
		v = strtol(optarg, &end, 10);
		if (*end || errno || v < 0 || v > 65535 || !*optarg)
			return -1;
		if (c == O_LOCAL) {
			o->mode = MODE_LOCAL;
			o->local = (uint32_t)v;
		} else if (c == O_RANK) {
			o->rank = (int)v;
		} else if (c == O_TCP) {
			o->tcp_port = (int)v;
		} else if (c == O_IBPORT) {
			o->ib_port = (int)v;
		} else {
			o->in.port = (int)v;
		}
		return 0;
	default:
		return -2;
	}
}

static int parse(int argc, char **argv, struct hfr_cli *o)
{
	static const struct option lo[] = {
		{ "paths", 1, NULL, O_PATHS }, { "topo", 1, NULL, O_TOPO }, { "lft", 1, NULL, O_LFT },
		{ "live", 0, NULL, O_LIVE }, { "ca", 1, NULL, O_CA }, { "port", 1, NULL, O_PORT },
		{ "sl", 1, NULL, O_SL }, { "roles", 1, NULL, O_ROLES },
		{ "trace", 1, NULL, O_TRACE }, { "steps", 0, NULL, O_STEPS },
		{ "job", 1, NULL, O_JOB }, { "size", 1, NULL, O_SIZE }, { "chunk", 1, NULL, O_CHUNK },
		{ "dtype", 1, NULL, O_DTYPE }, { "lmc-spread", 0, NULL, O_LMC },
		{ "no-ring", 0, NULL, O_NORING }, { "summary", 0, NULL, O_SUMMARY },
		{ "strict", 0, NULL, O_STRICT }, { "local", 1, NULL, O_LOCAL },
		{ "verbs", 0, NULL, O_VERBS }, { "hosts", 1, NULL, O_HOSTS },
		{ "rank", 1, NULL, O_RANK }, { "tcp-port", 1, NULL, O_TCP }, { "dev", 1, NULL, O_DEV },
		{ "ib-port", 1, NULL, O_IBPORT }, { "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c, li = 0;

	memset(o, 0, sizeof(*o));
	o->size = 256ull << 20;
	o->chunk = 4ull << 20;
	o->rank = -1;
	o->trace = -1;
	o->tcp_port = 18515;
	o->ib_port = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", lo, &li)) != -1) {
		int rc;

		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr, "hfreduce-check: %s '%s'\n",
				c == ':' ? "missing argument to" : "unknown option", argv[optind - 1]);
			return -1;
		}
		rc = parse_one(c, o);
		if (rc) {
			fprintf(stderr, "hfreduce-check: bad value '%s' for --%s\n", optarg, lo[li].name);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hfreduce-check: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (o->mode == MODE_NONE) {
		fprintf(stderr, "hfreduce-check: give --paths DIR, --topo/--lft, --live, --local N or --verbs\n");
		return -1;
	}
	if (o->mode == MODE_PATHS && !o->in.live && !o->in.dir && (!o->in.topo || !o->in.lft)) {
		fprintf(stderr, "hfreduce-check: --topo needs --lft (or give --paths DIR)\n");
		return -1;
	}
	if (o->mode == MODE_VERBS && !o->hosts) {
		fprintf(stderr, "hfreduce-check: --verbs needs --hosts h1,h2,...\n");
		return -1;
	}
	if (o->mode == MODE_LOCAL && (o->local < 1 || o->local > 1024)) {
		fprintf(stderr, "hfreduce-check: --local N: 1 to 1024 ranks\n");
		return -1;
	}
	if (o->chunk < hfr_dtype_size(o->dtype) || o->size < hfr_dtype_size(o->dtype)) {
		fprintf(stderr, "hfreduce-check: --size and --chunk must hold one element\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct hfr_cli o;
	int rc = parse(argc, argv, &o);

	if (rc)
		return rc > 0 ? 0 : 2;
	switch (o.mode) {
	case MODE_PATHS: return hfr_paths_main(&o);
	case MODE_LOCAL: return hfr_local_main(&o);
	case MODE_VERBS: return hfr_verbs_main(&o);
	default: return 2;
	}
}
