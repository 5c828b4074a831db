#!/usr/bin/env python3
# tests/tools/cdg_scc.py DIR - an independent check of ffroute check's credit
# loops (used to confirm the SCC sizes asserted in the tests by hand):
# Independent CDG check of an OpenSM dump dir: opensm-subnet.lst + opensm-lfts.dump.
# Largest cyclic SCC of the channel dependency graph of CA-injected routes,
# and of all-switch routes.  Not ffroute code: plain parsing + Tarjan.
import re,sys
sys.setrecursionlimit(1000000)
d=sys.argv[1]
links={}; ntype={}; lidnode={}
pat=re.compile(r'\{ (\w+(?:-\w+)?) Ports:\w+ SystemGUID:\w+ NodeGUID:(\w+) PortGUID:(\w+) .*?LID:(\w+) PN:(\w+) \}')
for line in open(d+'/opensm-subnet.lst'):
    e=pat.findall(line)
    if len(e)<2: continue
    x=[]
    for t,ng,pg,lid,pn in e[:2]:
        ng=ng.lower(); ntype[ng]='SW' if t.startswith('SW') else 'CA'; x.append((ng,int(lid,16),int(pn,16)))
        lidnode[int(lid,16)]=ng
    links[(x[0][0],x[0][2])]=(x[1][0],x[1][2])
lft={}; cur=None
for line in open(d+'/opensm-lfts.dump'):
    m=re.match(r"Unicast lids .* guid 0x(\w+)",line)
    if m: cur=m.group(1).lower(); lft[cur]={}; continue
    m=re.match(r"0x(\w+) (\d+) #",line)
    if m and cur: lft[cur][int(m.group(1),16)]=int(m.group(2))
sw=[g for g,t in ntype.items() if t=='SW']
def edges(starts):
    E=set()
    for lid,dst in lidnode.items():
        for s in starts:
            prev=None
            for _ in range(64):
                if s==dst: break
                port=lft.get(s,{}).get(lid)
                if not port: break
                nxt=links.get((s,port))
                if not nxt or ntype[nxt[0]]!='SW': break
                ch=(s,port)
                if prev: E.add((prev,ch))
                prev=ch; s=nxt[0]
    return E
def sccs(E):
    g={}
    for a,b in E: g.setdefault(a,[]).append(b); g.setdefault(b,[])
    idx={}; low={}; st=[]; on=set(); out=[]; c=[0]
    def sc(v):
        idx[v]=low[v]=c[0]; c[0]+=1; st.append(v); on.add(v)
        for w in g[v]:
            if w not in idx: sc(w); low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            comp=[]
            while True:
                w=st.pop(); on.discard(w); comp.append(w)
                if w==v: break
            if len(comp)>1: out.append(len(comp))
    for v in list(g):
        if v not in idx: sc(v)
    return out
ca_sw={b for (a,pa),(b,pb) in links.items() if ntype[a]=='CA' and ntype[b]=='SW'}|{a for (a,pa),(b,pb) in links.items() if ntype[b]=='CA' and ntype[a]=='SW'}
print('CA-injected cyclic SCC sizes:',sccs(edges(ca_sw)))
print('all-switch cyclic SCC sizes:',sccs(edges(sw)))
