#!/usr/bin/env python3
"""An external allocator with plantable bugs: the paper's per-loop allocation (sections 5.4-5.5).

It speaks the protocol of docs/fuzzing.md ("An allocator as a command") and is the "bug zoo" of
`bench/bench_bug_zoo.sh` and `tests/fuzz/bug_zoo_test.sh` (GitHub issue 40): each --bug plants one
mistake a real per-loop or per-engine pass could make, so that a campaign's power to find it
can be measured.

  as a command   syncbisim fuzz --allocator 'python3 examples/allocators/per_loop.py [--bug NAME]
                 [--strategy per-loop|per-engine]' (the spec as JSON on stdin, the impl as JSON on
                 stdout; exit 1 with the reason on stderr to decline a spec)
  from Python    import per_loop; per_loop.allocate(spec_dict_or_text, bug=None, strategy=...)
                 returns the impl as a dict; raises Declined

The allocation (docs/allocator.md, docs/semantics.md section 6). For a dependency p -> c let S be
the innermost common loop, P p's parent loop, k the offset at S and E p's engine.
  * Registers on the consumer's engine: r_L (+1 at the top of every iteration of L, never reset)
    and rh_L (:= 0 right before L's statement in its parent, +1 at the top of every iteration);
    a cond C is the two loops C.then and C.else, both rh reset before the cond statement.
  * expr = r_S - k when P = S; r_P when P lies below S (nested forward at k = 0, nested backward at
    k = 1, the two branches of one cond at k = 0 or 1; a nested backward dependency at offset 0
    owes what offset 1 owes with no mask, docs/analysis.md, so it gets r_P unmasked).
  * mask = isgt(rh_S, k) for k >= 1 (rh_S is 1.. inside S, so k = 0 needs none).
  * per-loop: one semaphore s_<L>_<E> per (loop, engine) with instructions directly in L, signalled
    by each of them; P holds N of E's instructions and p is the K-th in body order; the wait is
        s_<P>_<E> >= mask * (N * expr - (N - K))
    (eq. (5); the N instructions retire in order, once each per P-iteration).
  * per-engine (section 6.1, allocator/per_engine.cpp): one semaphore s_<E> per engine, counting
    every retirement of E; the threshold is the number of E's instructions in E's walk up to and
    including the instance owed, decoded from the consumer's registers. Where that decode is
    impossible the producer's (loop, engine) pair gets its own per-loop semaphore instead.
A dependency whose target always lies before the start gets no wait when the offset sits at @top
or above S; at S itself the pass is paper-literal and gives it the masked wait (the mask never
opens). Declined: a distance above S, a nested forward producer at k >= 1, a nested backward one
at k >= 2, exclusive branches at k >= 2, starred distances, divergent (per-engine) trip rules.

--bug NAME plants one bug. Each shows only for some dependency shapes (named after the colon);
"S repeats" means S is entered more than once (nested in a loop that iterates), and "lags" that
the producer's engine may fall behind the consumer's:
  nk-off-by-one     the general form N*expr - (N-K) with K counted from 0 (the N = 1 fold stays
                    right): under-sync, when E has N >= 2 instructions directly in P
  mask-k            isgt(rh_S, k + 1) instead of isgt(rh_S, k) when P = S: iteration k + 1 of a
                    trip skips its wait (under-sync: k >= 1 and a trip of S longer than k)
  trip-reset        every rh reset hoisted to the program's start instead of right before its loop
                    in the parent: later trips wait in their first k iterations (over-sync: k >= 1
                    at an S that repeats, or a branch loop whose cond repeats)
  monotone-mask     the mask reads r_S, the monotone register, in place of rh_S when S's parent
                    has a constant trip ("S starts one trip per parent run"): over-sync when that
                    parent runs more than once (k >= 1 at S in a loop of constant trip >= 2)
  wrong-loop-reg    a producer two loops below S counts the iterations of S's child that holds it
                    (r_child for r_P): wrong when P runs other than once per child iteration
                    (S = @top or a loop, P in a loop or branch inside another)
  backward-offset0  a nested backward dependency (k = 1) taken as offset 0: per-loop drops its
                    mask (over-sync in the first iteration of a repeated S: needs depth 3), the
                    per-engine decode uses the same-iteration count (over-sync when E has
                    instructions directly in S or in a loop of S before the consumer)
  decode-missing-loop  per-engine only (selects it): the decode leaves out E's loops that run
                    before the producer inside S's iteration (under-sync: E has instructions in a
                    sibling loop before p or before P's loop)
  shared-sem        the producers of one (loop, engine) share its semaphore with one increment per
                    iteration, given by the producer of the first dependency on the pair, and
                    every wait reads it with N = K = 1 (under-sync: two producers of one engine in
                    one loop, a wait on the later one in body order)
  sem-reuse         a later sibling loop's (loop, engine) semaphore is the earlier sibling's,
                    never reset: its waits read a count that holds the earlier loop's signals
                    (under-sync: E has instructions in two sibling loops, a wait on the later)
  same-engine-wait  no wait for a same-iteration dependency whose ends are on one engine with the
                    producer first (in-order issue taken for in-order retirement: under-sync)
  cond-reset        the branch loops of a cond get no rh reset (the pass resets loops only):
                    over-sync for k >= 1 at a branch loop whose cond repeats
"""
import json
import re
import sys

BUGS = ("nk-off-by-one", "mask-k", "trip-reset", "monotone-mask", "wrong-loop-reg", "backward-offset0",
        "decode-missing-loop", "shared-sem", "sem-reuse", "same-engine-wait", "cond-reset")
STRATEGIES = ("per-loop", "per-engine")
TOP = "@top"


class Declined(Exception):
    """The spec holds a dependency this allocator does not handle (a command exits 1)."""


def _ident(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _r(loop):
    return "r_" + _ident(loop)


def _rh(loop):
    return "rh_" + _ident(loop)


# ---------------------------------------------------------------------------------------------
# The spec's facts: loops, instructions, statement positions, body counts.


def _max_trip(rule):
    """The most iterations one trip may run (a branch loop: 1)."""
    if isinstance(rule, int):
        return rule
    if isinstance(rule, dict):
        if "per_engine" in rule:
            raise Declined("divergent control (a per-engine trip rule): engines may count iterations differently")
        if "seq" in rule:
            return max(rule["seq"])
        return rule["max"]
    raise Declined("unknown trip rule %r" % (rule,))


class Facts:
    """What the allocation reads about the spec, computed once.

    loops[L] = {"parent", "kind" ("top", "loop", "then", "else"), "stmt" (its statement index in
    the parent's normalized body), "path" (loops from @top down to L), "max_trip"}.
    instrs[I] = {"engine", "parent", "stmt", "order" (position in the engine's stream of the
    statement), "k" (1-based rank among the engine's instructions directly in the parent)}.
    n[(L, E)] = E's instructions directly in L's body (the paper's N).
    """

    def __init__(self, spec):
        self.engines = list(spec["engines"])
        self.loops = {TOP: {"parent": None, "kind": "top", "stmt": 0, "path": [TOP], "max_trip": 1}}
        self.instrs = {}
        self.n = {}
        self.trips = {}  # loop -> its trip rule
        self._walk(spec["program"], TOP)

    def _walk(self, body, loop):
        stmt = -1
        in_block = False  # consecutive blocks are one statement (docs/semantics.md section 1)
        order = {}
        for s in body:
            if "block" in s:
                if not in_block:
                    stmt += 1
                    order = {}
                in_block = True
                for engine, items in s["block"].items():
                    for item in items:
                        ident = item if isinstance(item, str) else item["id"]
                        key = (loop, engine)
                        self.n[key] = self.n.get(key, 0) + 1
                        order[engine] = order.get(engine, 0) + 1
                        self.instrs[ident] = {"engine": engine, "parent": loop, "stmt": stmt,
                                              "order": order[engine], "k": self.n[key]}
                continue
            in_block = False
            stmt += 1
            path = self.loops[loop]["path"]
            if "loop" in s:
                name = s["loop"]
                self.loops[name] = {"parent": loop, "kind": "loop", "stmt": stmt, "path": path + [name],
                                    "max_trip": _max_trip(s["trip"])}
                self.trips[name] = s["trip"]
                self._walk(s["body"], name)
            else:
                if isinstance(s.get("taken"), dict) and "per_engine" in s["taken"]:
                    raise Declined("divergent control (a per-engine branch rule)")
                for kind in ("then", "else"):
                    name = s["cond"] + "." + kind
                    self.loops[name] = {"parent": loop, "kind": kind, "stmt": stmt, "path": path + [name],
                                        "max_trip": 1}
                    self._walk(s.get(kind, []), name)

    def stmt_in(self, ident, S):
        """The statement of S's body that holds instruction `ident` (directly or nested)."""
        ins = self.instrs[ident]
        if ins["parent"] == S:
            return ins["stmt"]
        return self.loops[self.child_of(ins["parent"], S)]["stmt"]

    def child_of(self, loop, S):
        """The child of S on the path from S down to `loop` (which S encloses strictly)."""
        path = self.loops[loop]["path"]
        return path[path.index(S) + 1]

    def encloses(self, outer, loop):
        return outer in self.loops[loop]["path"]


class Dep:
    """One dependency's shape (docs/analysis.md): S, P, k, its class, and where its ends sit."""

    def __init__(self, facts, dep):
        self.producer, self.consumer = dep["producer"], dep["consumer"]
        p, c = facts.instrs[self.producer], facts.instrs[self.consumer]
        self.P, self.E, self.e = p["parent"], p["engine"], c["engine"]
        lp, lc = facts.loops[self.P]["path"], facts.loops[c["parent"]]["path"]
        common = 0
        while common < min(len(lp), len(lc)) and lp[common] == lc[common]:
            common += 1
        self.common = lp[:common]
        self.S = self.common[-1]
        self.name = "%s -> %s" % (self.producer, self.consumer)
        distance = dep.get("distance", {})
        self.never_binds = False
        for loop in self.common:
            d = distance.get(loop, 0)
            if d == "*":
                raise Declined("%s: a starred distance" % self.name)
            # A target component that is always <= 0: nothing is ever owed (docs/analysis.md).
            if d > 0 and d >= facts.loops[loop]["max_trip"]:
                self.never_binds = True
        self.k = distance.get(self.S, 0)
        above = [loop for loop in self.common[:-1] if distance.get(loop, 0) != 0]
        self.cls = None
        # No wait when the distance sits at @top or above S: it never binds, whatever the shape.
        self.no_wait = self.never_binds and (self.S == TOP or bool(above))
        if self.no_wait:
            return
        if above:
            raise Declined("%s: a distance at %s, above the innermost common loop %s" % (self.name, above[0], self.S))
        if self.P == self.S:
            self.cls = "producer-in-S"
            # Same statement: a block. Different engines are unordered, taken as forward.
            self.forward = (p["stmt"] < c["stmt"] or (p["stmt"] == c["stmt"] and
                            (self.E != self.e or p["order"] < c["order"])))
            return
        ip, ic = facts.stmt_in(self.producer, self.S), facts.stmt_in(self.consumer, self.S)
        self.exclusive = ip == ic  # one cond statement, the two branches
        self.forward = ip < ic
        if self.never_binds and (self.exclusive or (self.forward and self.k) or (not self.forward and self.k > 1)):
            self.no_wait = True  # outside the allocatable classes, but never owes anything
            return
        if self.exclusive:
            if self.k > 1:
                raise Declined("%s: exclusive branches at offset %d" % (self.name, self.k))
            self.cls = "exclusive"
        elif self.forward:
            if self.k != 0:
                raise Declined("%s: a nested forward producer at offset %d" % (self.name, self.k))
            self.cls = "nested-forward"
        else:
            if self.k > 1:
                raise Declined("%s: a nested backward producer at offset %d" % (self.name, self.k))
            self.cls = "nested-backward"


# ---------------------------------------------------------------------------------------------
# Wait values, as expression strings. A value is (mask, count): the wait is mask * count.


def _sub(a, b):
    if b == 0:
        return a
    return "%s - %d" % (a, b) if isinstance(b, int) else "%s - (%s)" % (a, b)


def _mul(n, a):
    return a if n == 1 else "%d * %s" % (n, _paren(a))


def _paren(a):
    return "(%s)" % a if any(op in str(a) for op in " +-*") and not str(a).startswith("isgt(") else str(a)


class Allocation:
    def __init__(self, spec, bug, strategy):
        self.spec, self.bug, self.strategy = spec, bug, strategy
        self.facts = Facts(spec)
        self.deps = [Dep(self.facts, d) for d in spec.get("deps", [])]
        self.signals = {}    # instruction -> semaphore
        self.waits = {}      # consumer -> [(semaphore, value: int or expression)]
        self.reads = {}      # engine -> {"r": loops, "rh": loops}: registers its waits read
        self.semaphores = []

    # -- the common parts

    def expr(self, d):
        """paper section 5.2: r_S - k for P = S, r_P for a nested producer. Marks registers read."""
        if d.P == d.S:
            if d.S == TOP:
                return 1 - d.k  # @top: r = 1 (k >= 1 never binds and got no wait)
            self.read(d.e, "r", d.S)
            return _sub(_r(d.S), d.k)
        P = d.P
        if self.bug == "wrong-loop-reg":
            # the register of the loop that S's body holds, as if P were S's child
            P = self.facts.child_of(d.P, d.S)
        self.read(d.e, "r", P)
        return _r(P)

    def mask(self, d):
        """isgt(rh_S, k), or None when nothing needs masking."""
        k = d.k
        if d.cls == "nested-backward" and k == 0:
            return None  # binds like offset 1 with every earlier P-iteration owed: r_P, unmasked
        if self.bug == "backward-offset0" and d.cls == "nested-backward":
            return None
        if k == 0:
            return None
        if self.bug == "mask-k" and d.P == d.S:
            k += 1
        if self.bug == "monotone-mask" and self.fixed_parent(d.S):
            # "S starts one trip per run of a parent with a fixed trip, so r_S serves as rh_S":
            # true only when that parent runs once
            self.read(d.e, "r", d.S)
            return "isgt(%s, %d)" % (_r(d.S), k)
        self.read(d.e, "rh", d.S)
        return "isgt(%s, %d)" % (_rh(d.S), k)

    def fixed_parent(self, loop):
        """Whether loop's parent is @top, a cond branch or a loop with a constant trip."""
        parent = self.facts.loops[loop]["parent"]
        return parent == TOP or self.facts.loops[parent]["kind"] != "loop" or \
            isinstance(self.facts.trips.get(parent), int)

    def read(self, engine, kind, loop):
        if loop != TOP:
            self.reads.setdefault(engine, {"r": set(), "rh": set()})[kind].add(loop)

    def add_wait(self, d, sem, mask, count):
        if isinstance(count, int) and mask is None:
            value = count  # a constant threshold is written directly
        elif mask is None:
            value = count
        else:
            value = "%s * (%s)" % (mask, count)
        if value == 0:
            return
        self.waits.setdefault(d.consumer, []).append((sem, value))

    def skip(self, d):
        """Whether a dependency gets no wait."""
        if d.no_wait:
            return True
        if self.bug == "same-engine-wait" and d.E == d.e and d.k == 0 and d.forward and d.cls != "exclusive":
            return True  # "the engine issues in order, so p is done": it only issued
        return False

    # -- per-loop

    def loop_semaphore(self, loop, engine):
        return "s_%s_%s" % ("top" if loop == TOP else _ident(loop), _ident(engine))

    def per_loop(self, deps):
        for d in deps:
            if self.skip(d):
                continue
            n, k = self.facts.n[(d.P, d.E)], self.facts.instrs[d.producer]["k"]
            expr, mask = self.expr(d), self.mask(d)
            if self.bug == "shared-sem":
                n = k = 1  # one increment per iteration, whichever of the producers gives it
            elif self.bug == "nk-off-by-one" and n >= 2:
                k -= 1  # K counted from 0 in the general form; the N = 1 fold below is right
            if isinstance(expr, int):
                count = max(n * expr - (n - k), 0)
            elif n == 1 and k == 1:
                count = expr  # the paper's fold: N = K = 1
            else:
                count = _sub(_mul(n, expr), n - k)
            sem = self.sem_of(d.P, d.E)
            self.add_wait(d, sem, mask, count)

    def sem_of(self, loop, engine):
        """The per-loop semaphore of (loop, engine), after the bugs that merge or reuse them."""
        if self.bug == "sem-reuse":
            return self.reused.get((loop, engine), self.loop_semaphore(loop, engine))
        return self.loop_semaphore(loop, engine)

    def declare_loop_semaphores(self, pairs):
        """Every instruction of E directly in L signals s_<L>_<E> (as Figure 8 does)."""
        self.reused = {}
        if self.bug == "sem-reuse":
            # A later sibling loop's (loop, engine) pair takes over the semaphore of the earlier
            # sibling's pair of that engine, whose waits are all placed before it ("its live range
            # ended"). Nothing resets the semaphore in between: the later loop's waits read a
            # count that still holds every signal of the earlier loop.
            last = {}
            sibs = sorted((info["parent"], info["stmt"], l) for l, info in self.facts.loops.items()
                          if info["kind"] == "loop")
            for parent, _, loop in sibs:
                for engine in self.facts.engines:
                    if (loop, engine) not in pairs:
                        continue
                    if (parent, engine) in last:
                        self.reused[(loop, engine)] = self.loop_semaphore(last[(parent, engine)], engine)
                    else:
                        last[(parent, engine)] = loop
        for ident, ins in self.facts.instrs.items():
            key = (ins["parent"], ins["engine"])
            if key in pairs:
                self.signals[ident] = self.sem_of(*key)
        if self.bug == "shared-sem":
            # The producers of one (loop, engine) share its semaphore with one increment per
            # iteration: only the producer of the first dependency that names the pair signals,
            # and every wait on the pair counts that one (N = K = 1). Right when the signalling
            # producer is the last of them in body order (E retires in order), wrong otherwise.
            self.shared = {}
            for d in self.deps:
                key = (d.P, d.E)
                if key in pairs and not d.no_wait:
                    self.shared.setdefault(key, d.producer)
            for ident, ins in self.facts.instrs.items():
                key = (ins["parent"], ins["engine"])
                if key in pairs and self.shared.get(key) != ident:
                    self.signals.pop(ident, None)

    # -- per-engine (paper section 6.1; allocator/per_engine.cpp derives the decode)

    def decode(self, d, counted):
        """The per-engine threshold of d (an expression), or None when it cannot be decoded.

        Since E issues in walk order and retires in issue order, s_E >= X holds exactly when the
        instance owed has retired, X being the number of E's counted instructions in E's walk up
        to and including it. Under uniform control the consumer's registers give X:
            X = sum over loops l of N_l * started_l(t) - sum over the path to P of (N_L - B_L)
        where N_l counts E's counted instructions directly in l, started_l(t) the iterations of l
        started up to the target t, and B_L E's instructions directly in L before the statement
        leading down to t (B_P = K): on the path the current iteration is only partly done.
        """
        f, E, S, P = self.facts, d.E, d.S, d.P
        if d.cls is None or (d.cls == "nested-backward" and d.k == 0) or d.cls == "exclusive":
            return None  # outside the paper's shapes (an exclusive branch owes an older iteration)
        if not counted.get((P, E), False):
            return None
        k_eff = d.k
        if P != S:
            if f.loops[P]["parent"] != S or f.loops[P]["kind"] != "loop" or self.min_trip(P) < 1:
                return None  # started_P(t) is r_P only for a child of S that runs every iteration
            k_eff = 0 if d.cls == "nested-forward" else 1
            if self.bug == "backward-offset0" and d.cls == "nested-backward":
                k_eff = 0  # the same-iteration decode: as if P had run in the consumer's iteration
        pos_t = f.instrs[d.producer]["stmt"] if P == S else f.loops[P]["stmt"]
        pos_c = f.stmt_in(d.consumer, S)

        def n_of(loop):
            return f.n.get((loop, E), 0) if counted.get((loop, E), False) else 0

        constant, plus, minus = 0, [], []
        for loop in f.loops:
            n = n_of(loop)
            if n == 0:
                continue
            if loop == S:
                if S == TOP:
                    constant += n  # r_@top = 1
                else:
                    plus.append((n, _r(loop)))
                    self.read(d.e, "r", loop)
                constant -= n * k_eff
                continue
            if not f.encloses(S, loop) or loop == P:  # no iteration of it starts within S's trip
                if loop == TOP:
                    constant += n
                else:
                    plus.append((n, _r(loop)))
                    self.read(d.e, "r", loop)
                continue
            if P != S and f.encloses(P, loop):
                return None  # a loop inside P: its iterations in P's current one are unknown
            m = f.loops[f.child_of(loop, S)]["stmt"]
            t_full = m < pos_t  # l's iterations in the target's S-iteration: all of them before t
            if self.bug == "decode-missing-loop" and t_full and k_eff == 0:
                continue  # "a loop before the producer is done": its count left out altogether
            if S == TOP and m > pos_t:
                continue  # @top runs once: a loop after the target has not started at t
            child = f.loops[loop]["parent"] == S
            v_any = m <= pos_c  # l has run (or is running) in the consumer's S-iteration
            if k_eff >= 2:
                return None
            if k_eff == 1:
                if not t_full or (v_any and not child):
                    return None
                plus.append((n, _r(loop)))
                self.read(d.e, "r", loop)
                if v_any:  # iterations of the current S-iteration are past the target
                    minus.append((n, _rh(loop)))
                    self.read(d.e, "rh", loop)
                continue
            if t_full and m < pos_c:
                plus.append((n, _r(loop)))
            elif not t_full and not v_any:
                plus.append((n, _r(loop)))
            elif not t_full and v_any and child:
                plus.append((n, _r(loop)))
                minus.append((n, _rh(loop)))
                self.read(d.e, "rh", loop)
            else:
                return None  # runs between the consumer and the producer it waits for
            self.read(d.e, "r", loop)
        path = f.loops[P]["path"]
        for i, L in enumerate(path):
            if L == P:
                b = f.instrs[d.producer]["k"]  # every instruction of E directly in P is counted
            else:
                nxt = f.loops[path[i + 1]]["stmt"]
                b = sum(1 for ins in f.instrs.values()
                        if ins["parent"] == L and ins["engine"] == E and ins["stmt"] < nxt)
                b = b if counted.get((L, E), False) else 0
            constant += b - n_of(L)
        if not plus and not minus:
            return max(constant, 0)
        terms = [_mul(n, reg) for n, reg in plus]
        if constant > 0:
            terms.append(str(constant))
        value = " + ".join(terms) if terms else "0"
        subtract = [_mul(n, reg) for n, reg in minus] + ([str(-constant)] if constant < 0 else [])
        if subtract:
            value = "%s - (%s)" % (value, " + ".join(subtract)) if len(subtract) > 1 or "*" in subtract[0] \
                else "%s - %s" % (value, subtract[0])
        return value

    def min_trip(self, loop):
        rule = self.facts.trips[loop]
        if isinstance(rule, int):
            return rule
        if "seq" in rule:
            return min(rule["seq"])
        return rule["min"]

    def per_engine(self):
        f = self.facts
        # A pair is split off (its own per-loop semaphore, out of s_E's count) when some
        # dependency on it cannot be decoded; splitting only removes terms, so this ends.
        counted = {pair: True for pair in f.n}
        live = [d for d in self.deps if not self.skip(d)]
        changed = True
        while changed:
            changed = False
            for d in live:
                if counted.get((d.P, d.E)) and self.decode(d, counted) is None:
                    counted[(d.P, d.E)] = False
                    changed = True
        self.reads = {}  # only the final decodes' registers are kept
        self.declare_loop_semaphores({pair for pair, c in counted.items() if not c})
        for ident, ins in f.instrs.items():
            if counted.get((ins["parent"], ins["engine"])):
                self.signals[ident] = "s_" + _ident(ins["engine"])
        fallback = []
        for d in live:
            value = self.decode(d, counted)
            if value is None:
                fallback.append(d)
                continue
            self.add_wait(d, "s_" + _ident(d.E), self.mask(d), value)
        self.per_loop(fallback)

    # -- the whole allocation

    def run(self):
        if self.strategy == "per-engine":
            self.per_engine()
        else:
            self.declare_loop_semaphores(set(self.facts.n))
            self.per_loop(self.deps)
        self.semaphores = sorted(set(self.signals.values()))
        return self.emit()

    # -- emission

    def emit(self):
        waits, signals = self.waits, self.signals

        def engines_reading(kind, loop):
            return sorted(e for e, regs in self.reads.items() if loop in regs[kind])

        def block(stmt):
            streams = {}
            for engine, items in stmt["block"].items():
                stream = []
                for item in items:
                    ident = item if isinstance(item, str) else item["id"]
                    out = {"instr": ident}
                    ws = []
                    for j, (sem, value) in enumerate(waits.get(ident, [])):
                        if isinstance(value, int):
                            ws.append({"sem": sem, "ge": value})
                        else:
                            # the value is computed into a temporary right before the consumer
                            reg = "w" if j == 0 else "w%d" % (j + 1)
                            stream.append({"set": reg, "expr": value})
                            ws.append({"sem": sem, "ge": reg})
                    if ws:
                        out["wait"] = ws
                    if ident in signals:
                        out["signal"] = signals[ident]
                    stream.append(out)
                streams[engine] = stream
            return {"block": streams}

        def counters(loop):
            """The register updates at the top of every iteration of `loop`, per engine."""
            streams = {}
            for e in engines_reading("r", loop):
                streams.setdefault(e, []).append({"set": _r(loop), "expr": _r(loop) + " + 1"})
            for e in engines_reading("rh", loop):
                streams.setdefault(e, []).append({"set": _rh(loop), "expr": _rh(loop) + " + 1"})
            return [{"block": streams}] if streams else []

        def resets(loops):
            streams = {}
            for loop in loops:
                for e in engines_reading("rh", loop):
                    streams.setdefault(e, []).append({"set": _rh(loop), "expr": 0})
            return [{"block": streams}] if streams else []

        def body(stmts):
            out = []
            for s in stmts:
                if "block" in s:
                    out.append(block(s))
                elif "loop" in s:
                    loop = {"loop": s["loop"], "body": counters(s["loop"]) + body(s["body"])}
                    if self.bug != "trip-reset":
                        out += resets([s["loop"]])
                    out.append(loop)
                else:
                    name = s["cond"]
                    cond = {"cond": name, "then": counters(name + ".then") + body(s.get("then", [])),
                            "else": counters(name + ".else") + body(s.get("else", []))}
                    if self.bug not in ("trip-reset", "cond-reset"):
                        out += resets([name + ".then", name + ".else"])
                    out.append(cond)
            return out

        program = body(self.spec["program"])
        if self.bug in ("trip-reset", "cond-reset"):
            # the resets hoisted to the program's start (registers start at 0 anyway: a no-op
            # that a reader takes for the reset)
            hoisted = [l for l, info in self.facts.loops.items()
                       if info["kind"] == "loop" and self.bug == "trip-reset" or info["kind"] in ("then", "else")]
            program = resets(hoisted) + program
        return {"syncbisim": "impl/1", "engines": self.spec["engines"], "semaphores": self.semaphores,
                "program": program}


def allocate(spec, bug=None, strategy="per-loop"):
    """The impl (a dict) of a spec (a dict, or its JSON text). Raises Declined."""
    if isinstance(spec, (str, bytes)):
        spec = json.loads(spec)
    if bug is not None and bug not in BUGS:
        raise ValueError("unknown bug %r (one of %s)" % (bug, ", ".join(BUGS)))
    if strategy not in STRATEGIES:
        raise ValueError("unknown strategy %r (one of %s)" % (strategy, ", ".join(STRATEGIES)))
    if bug == "decode-missing-loop":
        strategy = "per-engine"  # a bug of the per-engine decode
    return Allocation(spec, bug, strategy).run()


def main(argv):
    bug, strategy = None, "per-loop"
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag in ("--bug", "--strategy") and args:
            value = args.pop(0)
            if flag == "--bug":
                bug = value
            else:
                strategy = value
        elif flag in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        else:
            sys.stderr.write("per_loop.py: unknown argument %r\n" % flag)
            return 2
    if bug is not None and bug not in BUGS:
        sys.stderr.write("per_loop.py: unknown bug %r (one of %s)\n" % (bug, ", ".join(BUGS)))
        return 2
    if strategy not in STRATEGIES:
        sys.stderr.write("per_loop.py: unknown strategy %r\n" % strategy)
        return 2
    try:
        impl = allocate(sys.stdin.read(), bug, strategy)
    except Declined as e:
        sys.stderr.write("per_loop.py: %s\n" % e)
        return 1
    sys.stdout.write(json.dumps(impl))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
