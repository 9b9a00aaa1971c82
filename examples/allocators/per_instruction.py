#!/usr/bin/env python3
"""A small external allocator: the paper's per-instruction allocation (section 5.3).

It is written the way a user of syncbisim would write one, against the protocol of
docs/fuzzing.md ("An allocator as a command"), and is usable in all three ways syncbisim takes
an allocator:

  as a command   syncbisim fuzz --allocator 'python3 examples/allocators/per_instruction.py'
                 (reads the spec as JSON on stdin, writes the impl as JSON on stdout; exits 1,
                 declining, for a dependency outside the cases it handles)
  from Python    import per_instruction; syncbisim.fuzz(per_instruction.allocate)
                 (raises Declined, which syncbisim counts as a refusal)

For every dependency p -> c carried at S (the innermost common loop; no distance above S) with
offset k, p's parent loop P: one semaphore s_p that p increments when it retires, and before c
the wait  s_p >= isgt(rh_S, k) * expr  with expr = r_S - k when P = S, r_P when P is nested
below S (forward at offset 0, backward at offset 1). r_L counts the iterations of L the
consumer's engine has started (never reset), rh_L those of the current trip of L.

--bug NAME (or the `bug` argument) plants a bug that shows only for some dependency shapes, to
see that a campaign finds it:
  mask       the mask isgt(rh_S, k - 1) instead of isgt(rh_S, k) for offsets k >= 2 (waits one
             iteration too early in every trip of S but the first: over-synchronization)
  backward   r_P - 1 instead of r_P for a nested backward dependency (issues before the last
             instance of P has retired: under-synchronization)
"""
import json
import re
import sys


class Declined(Exception):
    """This allocator does not handle the spec (a command exits 1 with the message on stderr)."""


def _reg(prefix, loop):
    return prefix + "_" + re.sub(r"[^A-Za-z0-9_]", "_", loop)


def _walk(body, path, out):
    """Records, for every instruction, its engine and its path: (loop, index of the statement of
    that loop's body that holds it), from the top-level loop inward."""
    for i, stmt in enumerate(body):
        if "block" in stmt:
            for engine, items in stmt["block"].items():
                for pos, item in enumerate(items):
                    ident = item if isinstance(item, str) else item["id"]
                    out[ident] = {"engine": engine, "path": path + [(None, i, pos)]}
        elif "loop" in stmt:
            _walk(stmt["body"], path + [(stmt["loop"], i, 0)], out)
        else:
            _walk(stmt.get("then", []), path + [(stmt["cond"] + ".then", i, 0)], out)
            _walk(stmt.get("else", []), path + [(stmt["cond"] + ".else", i, 0)], out)


def _loops(path):
    return ["@top"] + [loop for loop, _, _ in path if loop is not None]


def _wait_value(dep, where, bug):
    """The wait threshold of one dependency (an expression string) and the loops whose
    registers it reads on the consumer's engine."""
    p, c = where[dep["producer"]], where[dep["consumer"]]
    lp, lc = _loops(p["path"]), _loops(c["path"])
    common = 0
    while common < min(len(lp), len(lc)) and lp[common] == lc[common]:
        common += 1
    S, P = lc[common - 1], lp[-1]
    distance = {loop: k for loop, k in dep.get("distance", {}).items() if k != 0}
    if any(loop != S for loop in distance):
        raise Declined("%s -> %s: a distance above the innermost common loop %s" % (dep["producer"], dep["consumer"], S))
    k = distance.get(S, 0)
    needs = {"r": set(), "rh": set()}
    if S == "@top" and k > 0:
        return None, needs  # @top runs once: the target lies before it, nothing is owed
    if P == S:
        expr = "1" if S == "@top" else "%s - %d" % (_reg("r", S), k) if k else _reg("r", S)
        if S != "@top":
            needs["r"].add(S)
    else:
        # Which statement of S's body holds each end (paper section 5.2: a nested producer takes
        # the position of the loop it sits in).
        depth = common - 1  # index into the path of the statement inside S
        ip, ic = p["path"][depth][1], c["path"][depth][1]
        if ip == ic:
            raise Declined("%s -> %s: the ends sit in the two branches of one cond" % (dep["producer"], dep["consumer"]))
        forward = ip < ic
        if (forward and k != 0) or (not forward and k != 1):
            raise Declined("%s -> %s: a nested producer %s at offset %d" %
                           (dep["producer"], dep["consumer"], "forward" if forward else "backward", k))
        expr = _reg("r", P)
        if bug == "backward" and not forward:
            expr = "%s - 1" % expr
        needs["r"].add(P)
    if k == 0:
        return expr, needs
    threshold = k - 1 if bug == "mask" and k >= 2 else k
    needs["rh"].add(S)
    return "isgt(%s, %d) * (%s)" % (_reg("rh", S), threshold, expr), needs


def allocate(spec_text, bug=None):
    """The impl of a spec, both as JSON text. Raises Declined."""
    spec = json.loads(spec_text)
    where = {}
    _walk(spec["program"], [], where)
    waits = {}  # consumer -> [(semaphore, register, value)]
    counters = {}  # engine -> {"r": loops, "rh": loops}
    signals = {}
    for n, dep in enumerate(spec.get("deps", [])):
        value, needs = _wait_value(dep, where, bug)
        if value is None:
            continue
        engine = where[dep["consumer"]]["engine"]
        regs = counters.setdefault(engine, {"r": set(), "rh": set()})
        regs["r"] |= needs["r"]
        regs["rh"] |= needs["rh"]
        sem = "s_" + re.sub(r"[^A-Za-z0-9_]", "_", dep["producer"])
        signals[dep["producer"]] = sem
        waits.setdefault(dep["consumer"], []).append((sem, "w%d" % n, value))

    def engines_needing(kind, loop):
        return sorted(e for e, regs in counters.items() if loop in regs[kind])

    def instr(item):
        ident = item if isinstance(item, str) else item["id"]
        out = {"instr": ident}
        if ident in waits:
            out["wait"] = [{"sem": sem, "ge": reg} for sem, reg, _ in waits[ident]]
        if ident in signals:
            out["signal"] = signals[ident]
        return out

    def block(stmt):
        streams = {}
        for engine, items in stmt["block"].items():
            stream = []
            for item in items:
                ident = item if isinstance(item, str) else item["id"]
                for _, reg, value in waits.get(ident, []):
                    stream.append({"set": reg, "expr": value})
                stream.append(instr(item))
            streams[engine] = stream
        return {"block": streams}

    def prologue(loop):
        """The counter updates at the top of every iteration of `loop`, per engine."""
        streams = {}
        for e in engines_needing("r", loop):
            streams.setdefault(e, []).append({"set": _reg("r", loop), "expr": _reg("r", loop) + " + 1"})
        for e in engines_needing("rh", loop):
            streams.setdefault(e, []).append({"set": _reg("rh", loop), "expr": _reg("rh", loop) + " + 1"})
        return [{"block": streams}] if streams else []

    def resets(*loops):
        streams = {}
        for loop in loops:
            for e in engines_needing("rh", loop):
                streams.setdefault(e, []).append({"set": _reg("rh", loop), "expr": 0})
        return [{"block": streams}] if streams else []

    def body(stmts):
        out = []
        for stmt in stmts:
            if "block" in stmt:
                out.append(block(stmt))
            elif "loop" in stmt:
                loop = dict(stmt)
                loop["body"] = prologue(stmt["loop"]) + body(stmt["body"])
                out += resets(stmt["loop"]) + [loop]
            else:
                cond = dict(stmt)
                name = stmt["cond"]
                cond["then"] = prologue(name + ".then") + body(stmt.get("then", []))
                cond["else"] = prologue(name + ".else") + body(stmt.get("else", []))
                out += resets(name + ".then", name + ".else") + [cond]
        return out

    impl = {"syncbisim": "impl/1", "engines": spec["engines"], "semaphores": sorted(set(signals.values())),
            "program": body(spec["program"])}
    return json.dumps(impl, indent=1)


def main(argv):
    bug = None
    if len(argv) >= 2 and argv[0] == "--bug":
        bug = argv[1]
    try:
        sys.stdout.write(allocate(sys.stdin.read(), bug))
    except Declined as e:
        sys.stderr.write("per_instruction.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
