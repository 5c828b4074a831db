// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_classify.c - "ffroute classify": what the engine and the checker
 * think every node and port is (cls_classify), with counts, and the
 * reasons when the engine would refuse the fabric.  Text or --json;
 * --nodes lists every switch and CA.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/class.h>

#include "cli.h"

const char cmd_classify_help[] =
	"usage: ffroute classify [--format F] [--roles F] [--json] [--nodes] FABRIC\n"
	"\n"
	"Classify a fabric as the engine routes it and the checker judges it: levels,\n"
	"zones (frames), rails, hosts, roles, port directions and port groups, with\n"
	"counts, and the reasons for a refusal.  Exit 0 routable, 1 refused, 2 bad input.\n"
	"\n"
	"  -f, --format F   topology format (default: detected); also --topo-format\n"
	"  -r, --roles F    override file: GUID|/REGEX/ ROLE [zone=Z] [rail=R] [level=L]\n"
	"  -j, --json       JSON output\n"
	"  -n, --nodes      list every node (switch: level, zone, rail; CA: role, host)\n";

struct counts {
	uint32_t level[256], zone_sw[16], zone_ca[16], rail[64];
	uint32_t role[CLS_ROLE_COUNT], dir[CLS_DIR_COUNT], groups_parallel;
};

static void count(const struct topo *t, const struct cls *c, struct counts *k)
{
	memset(k, 0, sizeof(*k));
	for (uint32_t n = 0; n < t->nnodes; n++) {
		int z = c->zone[n];

		if (topo_is_switch(t, n)) {
			k->level[c->level[n]]++;
			k->zone_sw[z >= 0 && z < 15 ? z : 15]++;
		} else {
			k->role[c->role[n]]++;
			k->zone_ca[z >= 0 && z < 15 ? z : 15]++;
			if (c->rail[n] >= 0)
				k->rail[c->rail[n] < 63 ? c->rail[n] : 63]++;
		}
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			k->dir[c->dir[p]]++;
			k->groups_parallel += topo_is_switch(t, n) && c->group[p] != p;
		}
	}
}

/* A rate in Gb/s x 10 as "200" or "56.2". */
static const char *gbps(uint32_t r, char *buf, size_t len)
{
	if (r % 10)
		snprintf(buf, len, "%u.%u", r / 10, r % 10);
	else
		snprintf(buf, len, "%u", r / 10);
	return buf;
}

/* The ends of the links of subtree @st to the fast tree. */
static void subtree_counts(const struct topo *t, const struct cls *c, uint32_t st,
			   unsigned *sw, unsigned *cas, unsigned *up, uint32_t *rate)
{
	*sw = *cas = *up = 0;
	*rate = 0;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (c->subtree[n] != st)
			continue;
		if (!topo_is_switch(t, n)) {
			*cas += cls_is_endpoint(t, c, n);	/* not its switches' SHARP nodes */
			continue;
		}
		++*sw;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = t->port_remote[p];

			if (q != TOPO_NONE && topo_is_switch(t, t->port_node[q]) &&
			    c->subtree[t->port_node[q]] != st) {
				++*up;
				*rate = c->rate[p] > *rate ? c->rate[p] : *rate;
			}
		}
	}
}

/* Rates: the full rate, slow CAs, low-speed subtrees, trained-down links. */
static void print_rates(const struct topo *t, const struct cls *c, FILE *fp)
{
	unsigned slow_cas = 0, in_sub = 0, on_slow = 0, sw, cas, up;
	uint32_t rate;
	char b1[16], b2[16], b3[48] = "";

	for (uint32_t n = 0; n < t->nnodes; n++)
		if (!topo_is_switch(t, n) && c->slow[n]) {
			slow_cas++;
			in_sub += c->subtree[n] != TOPO_NONE;
			/* on a slow leaf cabled like the others (class_rate.c) */
			on_slow += c->subtree[n] == TOPO_NONE && c->ca_sw[n] != TOPO_NONE &&
				   c->slow[c->ca_sw[n]];
		}
	if (!c->full_rate) {
		fprintf(fp, "rates: unknown (the input gives no link width and speed)\n");
		return;
	}
	if (on_slow)
		snprintf(b3, sizeof(b3), ", %u on slow leaves of the tree", on_slow);
	fprintf(fp, "rates: full %s Gb/s (most switch-to-switch links); slow CAs %u (%u in "
		"low-speed subtrees, %u on full-rate switches%s); subtrees %u; trained-down "
		"links %u\n", gbps(c->full_rate, b1, sizeof(b1)), slow_cas, in_sub,
		slow_cas - in_sub - on_slow, b3, c->nsubtrees, c->ntrained);
	for (uint32_t st = 0; st < c->nsubtrees; st++) {
		subtree_counts(t, c, st, &sw, &cas, &up, &rate);
		fprintf(fp, "  subtree %u: %u switches, %u CAs, %u up-links at %s Gb/s\n", st, sw,
			cas, up, gbps(rate, b1, sizeof(b1)));
	}
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t q = t->port_remote[p];

		if (c->trained[p] && q != TOPO_NONE && p < q)
			fprintf(fp, "  trained down: '%s' port %u - '%s' port %u: %s Gb/s, both "
				"ends run %s Gb/s or more elsewhere\n",
				t->node_desc[t->port_node[p]], topo_port_num(t, p),
				t->node_desc[t->port_node[q]], topo_port_num(t, q),
				gbps(c->rate[p], b1, sizeof(b1)),
				gbps(c->cap[t->port_node[p]] < c->cap[t->port_node[q]] ?
				     c->cap[t->port_node[p]] : c->cap[t->port_node[q]], b2,
				     sizeof(b2)));
	}
}

static void print_text(const struct topo *t, const struct cls *c, const struct counts *k,
		       bool nodes, FILE *fp)
{
	fprintf(fp, "switches %u, CAs %u, hosts %u\n", t->nswitches, t->ncas + t->nrouters,
		c->nhosts);
	fprintf(fp, "levels:");
	for (unsigned l = 0; l <= c->nlevels; l++)
		if (k->level[l])
			fprintf(fp, " %u:%u", l, k->level[l]);
	fprintf(fp, "%s\nzones: %u (%s)\n", k->level[0] ? "  (0 = no level)" : "", c->nzones,
		c->zone_why[0] ? c->zone_why : "zones are parts joined by few links");
	for (unsigned z = 0; z < 16; z++)
		if (k->zone_sw[z] || k->zone_ca[z])
			fprintf(fp, "  zone %s%u: %u switches, %u CAs\n", z == 15 ? ">=" : "",
				z, k->zone_sw[z], k->zone_ca[z]);
	fprintf(fp, "  zone-less switches: %u\n", k->zone_sw[15]);
	fprintf(fp, "rails: %u (%s)\n", c->nrails, c->rail_why);
	fprintf(fp, "roles:");
	for (unsigned r = 1; r < CLS_ROLE_COUNT; r++)
		fprintf(fp, " %s %u", cls_role_name((enum cls_role)r), k->role[r]);
	fprintf(fp, "\nports:");
	for (unsigned d = 1; d < CLS_DIR_COUNT; d++)
		fprintf(fp, " %s %u", cls_dir_name((enum cls_dir)d), k->dir[d]);
	fprintf(fp, "\nparallel switch ports (beyond the first of a group): %u\n",
		k->groups_parallel);
	fprintf(fp, "shape: %s\n", c->shape_why);
	print_rates(t, c, fp);
	if (!c->nreasons)
		fprintf(fp, "verdict: routable%s\n", c->not_tree ? " (ffroute route declines it "
			"unless --non-tree route)" : "");
	for (unsigned i = 0; i < c->nreasons; i++)
		fprintf(fp, "verdict: refused: %s\n", c->reason[i]);
	for (uint32_t n = 0; nodes && n < t->nnodes; n++)
		fprintf(fp, "node 0x%016" PRIx64 " %s level %u zone %d rail %d role %s host %d "
			"rate %u%s%s '%s'\n", t->node_guid[n], topo_is_switch(t, n) ? "switch" : "ca",
			c->level[n], c->zone[n], c->rail[n],
			cls_role_name((enum cls_role)c->role[n]),
			c->host[n] == TOPO_NONE ? -1 : (int)c->host[n], c->cap[n] / 10,
			c->slow[n] ? " slow" : "", c->subtree[n] != TOPO_NONE ? " subtree" : "",
			t->node_desc[n]);
}

static void print_json(const struct topo *t, const struct cls *c, const struct counts *k,
		       FILE *fp)
{
	fprintf(fp, "{\"switches\": %u, \"cas\": %u, \"hosts\": %u, \"levels\": {", t->nswitches,
		t->ncas + t->nrouters, c->nhosts);
	for (unsigned l = 0, first = 1; l <= c->nlevels; l++)
		if (k->level[l]) {
			fprintf(fp, "%s\"%u\": %u", first ? "" : ", ", l, k->level[l]);
			first = 0;
		}
	fprintf(fp, "}, \"zones\": %u, \"zone_why\": ", c->nzones);
	cli_json_str(fp, c->zone_why);
	fprintf(fp, ", \"zoneless_switches\": %u, \"rails\": %u, \"rail_why\": ", k->zone_sw[15],
		c->nrails);
	cli_json_str(fp, c->rail_why);
	fprintf(fp, ", \"tree\": %s, \"shape_why\": ", c->not_tree ? "false" : "true");
	cli_json_str(fp, c->shape_why);
	fprintf(fp, ", \"roles\": {");
	for (unsigned r = 1; r < CLS_ROLE_COUNT; r++)
		fprintf(fp, "%s\"%s\": %u", r > 1 ? ", " : "", cls_role_name((enum cls_role)r),
			k->role[r]);
	fprintf(fp, "}, \"ports\": {");
	for (unsigned d = 1; d < CLS_DIR_COUNT; d++)
		fprintf(fp, "%s\"%s\": %u", d > 1 ? ", " : "", cls_dir_name((enum cls_dir)d),
			k->dir[d]);
	fprintf(fp, "}, \"full_rate_gbps\": %g, \"subtrees\": %u, \"trained_down\": %u",
		c->full_rate / 10.0, c->nsubtrees, c->ntrained);
	fprintf(fp, ", \"routable\": %s, \"reasons\": [", c->nreasons ? "false" : "true");
	for (unsigned i = 0; i < c->nreasons; i++) {
		fprintf(fp, "%s", i ? ", " : "");
		cli_json_str(fp, c->reason[i]);
	}
	fprintf(fp, "]}\n");
}

int cmd_classify(const struct cli_cmd *cmd, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "topo-format", required_argument, NULL, 'f' }, { "roles", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' }, { "nodes", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	enum ffr_format fmt = FFR_FMT_AUTO;
	const char *roles = NULL;
	bool json = false, nodes = false;
	struct cls_overrides ov = { 0 };
	struct topo *t;
	struct cls c;
	struct counts k;
	int opt, rc;

	cli_reset_getopt();
	while ((opt = getopt_long(argc, argv, ":f:r:jnh", lopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (cli_parse_format(cmd, "--format", optarg, CLI_FMT_TOPO, &fmt))
				return CLI_ERROR;
			break;
		case 'r': roles = optarg; break;
		case 'j': json = true; break;
		case 'n': nodes = true; break;
		case 'h': cli_help(cmd, stdout); return CLI_OK;
		default: return cli_getopt_error(cmd, opt, argv);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error(cmd, "expected one FABRIC file");
	if (roles && cli_load_overrides(roles, &ov))
		return CLI_ERROR;
	t = cli_load_topo(argv[optind], fmt, NULL);
	if (!t) {
		cls_overrides_free(&ov);
		return CLI_ERROR;
	}
	if (roles)
		warn_overrides(t, &ov, roles);
	rc = cls_classify(t, &ov, &c);
	if (rc) {
		fprintf(stderr, "ffroute classify: %s\n", strerror(-rc));
		rc = CLI_ERROR;
	} else {
		count(t, &c, &k);
		if (json)
			print_json(t, &c, &k, stdout);
		else
			print_text(t, &c, &k, nodes, stdout);
		rc = c.nreasons ? CLI_FINDINGS : CLI_OK;
		cls_free(&c);
	}
	cls_overrides_free(&ov);
	topo_free(t);
	return rc;
}
