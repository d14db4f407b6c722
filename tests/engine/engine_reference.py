"""A deliberately naive second implementation of rules.md, for differential tests.

Written straight from the spec, sharing no code with ``games.engine``: colours
are names, pawns are lists, everything is recomputed from scratch, nothing is
fast. Tests check that the engine and this reference agree on every log.
"""

from __future__ import annotations

import random

LEAGUE = {
    "setup": "yard",
    "compulsory_entry": True,
    "clear_start": True,
    "three_tries": True,
    "jump_in_goal": False,
    "barriers": False,
    "compulsory_capture": False,
    "capture_backwards": False,
    "end": "first-colour",
    "neutral": None,
}
PRESETS = {
    "league": LEAGUE,
    "league-2t+": {**LEAGUE, "end": "both-colours"},
    "league-3t+": {**LEAGUE, "end": "both-colours"},
    "league-gp": {**LEAGUE, "end": "all-places"},
    "classic": {
        **LEAGUE,
        "setup": "one-out",
        "three_tries": False,
        "jump_in_goal": True,
        "end": "all-places",
    },
    "online": {**LEAGUE, "compulsory_entry": False, "clear_start": False, "jump_in_goal": True},
}
DEFAULT = {
    4: ["red", "black", "yellow", "green"],
    6: ["red", "black", "yellow", "green", "blue", "white"],
}


class Bad(Exception):
    pass


def options(rules):
    if isinstance(rules, str):
        return dict(PRESETS[rules])
    opts = dict(PRESETS[rules["preset"]])
    opts.update({k: v for k, v in rules.items() if k != "preset"})
    return opts


class Reference:
    def __init__(self, log):
        self.size = log.get("board", 4)
        self.T = 40 if self.size == 4 else 48
        self.step = 10 if self.size == 4 else 8
        self.colours = list(log.get("colours") or DEFAULT[self.size])
        self.o = options(log["rules"])
        self.neutral = self.o["neutral"]
        self.unused = list(log.get("unused") or [])
        self.playing = [c for c in self.colours if c not in self.unused and c != self.neutral]
        given = log.get("players") or {}
        self.player = {}
        for name, cs in given.items():
            for c in cs:
                self.player[c] = name
        for c in self.playing:
            self.player.setdefault(c, c)
        self.pawns = {}
        for c in self.colours:
            if c in self.unused:
                self.pawns[c] = []
            elif self.o["setup"] == "one-out":
                self.pawns[c] = [0, "B", "B", "B"]
            else:
                self.pawns[c] = ["B"] * 4
        self.done = []  # finished colours, in order
        self.home_first = []  # neutral games: colours whose own pawns got home, in order
        self.captures = dict.fromkeys(self.colours, 0)
        self.over = False
        self.winner = None
        self.current = log["first"]
        self.new_opportunity()

    # --- geometry
    def where(self, colour, p):
        return (self.colours.index(colour) * self.step + p) % self.T

    def on_field(self, field):
        out = []
        for c, ps in self.pawns.items():
            for p in ps:
                if p != "B" and p < self.T and self.where(c, p) == field:
                    out.append(c)
        return out

    def barrier_at(self, field):
        if not self.o["barriers"]:
            return False
        there = self.on_field(field)
        return len(there) == 2 and there[0] == there[1]

    # --- moves
    def pawn_moves(self, pc, p, n):
        T = self.T
        out = []
        if p == "B":
            if n == 6:
                there = self.on_field(self.where(pc, 0))
                if pc in there or self.barrier_at(self.where(pc, 0)):
                    return []
                out.append((pc, "B", 0, there[0] if there else None))
            return out
        t = p + n
        if t <= T + 3:
            ok = True
            for q in range(p + 1, t):
                if q < T and self.barrier_at(self.where(pc, q)):
                    ok = False
                if q >= T and not self.o["jump_in_goal"] and q in self.pawns[pc]:
                    ok = False
            captured = None
            if t < T:
                there = self.on_field(self.where(pc, t))
                mine = there.count(pc)
                if mine and (not self.o["barriers"] or mine >= 2):
                    ok = False
                others = [c for c in there if c != pc]
                if others:
                    if len(others) >= 2:
                        ok = False
                    captured = others[0]
            elif t in self.pawns[pc]:
                ok = False
            if ok:
                out.append((pc, p, t, captured))
        if self.o["capture_backwards"] and p < T and p - n >= 1:
            t = p - n
            there = self.on_field(self.where(pc, t))
            others = [c for c in there if c != pc]
            ok = len(others) == 1 and pc not in there
            for q in range(t + 1, p):
                if self.barrier_at(self.where(pc, q)):
                    ok = False
            if ok:
                out.append((pc, p, t, others[0]))
        return out

    def movable(self, c):
        return [c] + ([self.neutral] if self.neutral and self.neutral != c else [])

    def legal(self, c, n):
        moves = []
        for pc in self.movable(c):
            for p in self.pawns[pc]:
                for m in self.pawn_moves(pc, p, n):
                    if m not in moves:
                        moves.append(m)
        if not moves:
            return moves
        if self.o["compulsory_entry"]:
            entry = [m for m in moves if m[0] == c and m[1] == "B"]
            if entry:
                moves = entry
        if self.o["clear_start"] and "B" in self.pawns[c] and 0 in self.pawns[c]:
            first = [m for m in moves if m[0] == c and m[1] == 0]
            if first:
                moves = first
        if self.o["compulsory_capture"] is True:
            caps = [m for m in moves if m[3] is not None]
            if caps:
                moves = caps
        return moves

    def stuck(self, c):
        T = self.T
        for pc in self.movable(c):
            for p in self.pawns[pc]:
                if p == "B":
                    continue
                if p < T:
                    return False
                for n in range(1, 7):
                    if self.pawn_moves(pc, p, n):
                        return False
        return True

    # --- turn
    def new_opportunity(self):
        self.tries = 3 if self.o["three_tries"] and self.stuck(self.current) else 1

    def next_colour(self):
        i = self.colours.index(self.current)
        for k in range(1, len(self.colours) + 1):
            c = self.colours[(i + k) % len(self.colours)]
            if c in self.playing and c not in self.done:
                return c
        raise AssertionError("nobody left")

    def home(self, c):
        return sum(1 for p in self.pawns[c] if p != "B" and p >= self.T)

    def move_pawn(self, c, m):
        pc, frm, to, captured = m
        self.pawns[pc][self.pawns[pc].index(frm)] = to
        if captured is not None:
            field = self.where(pc, to)
            ps = self.pawns[captured]
            for i, p in enumerate(ps):
                if p != "B" and p < self.T and self.where(captured, p) == field:
                    ps[i] = "B"
                    break
            self.captures[c] += 1

    def finish_check(self, c):
        newly = []
        if not self.neutral:
            if self.home(c) == 4 and c not in self.done:
                newly = [c]
        else:
            for x in self.playing:
                if self.home(x) == 4 and x not in self.home_first:
                    self.home_first.append(x)
            if self.home(self.neutral) == 4:
                waiting = [x for x in self.home_first if x not in self.done]
                newly = ([c] if c in waiting else []) + [x for x in waiting if x != c]
        self.done.extend(newly)
        if not newly:
            return
        end = self.o["end"]
        if end == "first-colour":
            self.over = True
            self.winner = self.player[self.done[0]]
            return
        if end == "all-places":
            left = [x for x in self.playing if x not in self.done]
            if len(left) <= 1:
                self.done.extend(left)
                self.over = True
        for i in range(len(self.done)):
            prefix = self.done[: i + 1]
            for name in dict.fromkeys(self.player[x] for x in prefix):
                mine = [x for x in self.playing if self.player[x] == name]
                if all(x in prefix for x in mine):
                    if end == "both-colours":
                        self.over = True
                    if self.over:
                        self.winner = name
                    return

    def huff_allowed(self, c, legal, m, after):
        """Positions (``after`` = c's pawns after move m) of pawns that could have captured.

        None if no huff is due.
        """
        if self.o["compulsory_capture"] != "huff" or m[3] is not None:
            return None
        capable = [x for x in legal if x[0] == c and x[3] is not None]
        if not capable:
            return None
        out = set()
        for x in capable:
            if x[1] == m[1] and m[0] == c:
                out.add(m[2])
            if x[1] in after:
                out.add(x[1])
        return out

    def event(self, ev):  # noqa: C901 (the naive reference engine, one readable ladder)
        if self.over:
            raise Bad("over")
        if not isinstance(ev, dict):
            raise Bad("shape")
        c = ev.get("colour")
        if c not in self.colours:
            raise Bad("colour")
        n = ev.get("die")
        if type(n) is not int or n < 1 or n > 6:
            raise Bad("die")
        if c != self.current:
            raise Bad("turn")
        huff = ev.get("huff")
        if huff is not None and self.o["compulsory_capture"] != "huff":
            raise Bad("huff rules")
        if huff is not None and not (
            huff == "B" or (type(huff) is int and 0 <= huff <= self.T + 3)
        ):
            raise Bad("huff shape")
        legal = self.legal(c, n)
        mv = ev.get("move")
        if mv is None:
            if legal or huff is not None:
                raise Bad("no move")
        else:
            if not isinstance(mv, list) or len(mv) != 2:
                raise Bad("move shape")
            frm, to = mv
            if not (frm == "B" or (type(frm) is int and 0 <= frm <= self.T + 3)):
                raise Bad("from")
            if not (type(to) is int and 0 <= to <= self.T + 3):
                raise Bad("to")
            pc = ev.get("pawn_colour") or c
            if pc not in self.colours or (pc != c and pc != self.neutral):
                raise Bad("pawn colour")
            found = [m for m in legal if m[:3] == (pc, frm, to)]
            if not found:
                raise Bad("illegal")
            m = found[0]
            self.move_pawn(c, m)
            allowed = self.huff_allowed(c, legal, m, self.pawns[c])
            if allowed is None:
                if huff is not None:
                    raise Bad("huff not due")
            else:
                if huff not in allowed:
                    raise Bad("huff wrong")
                if huff != "B":
                    self.pawns[c][self.pawns[c].index(huff)] = "B"
            self.finish_check(c)
        if self.over:
            return
        if c in self.done:
            self.current = self.next_colour()
            self.new_opportunity()
        elif n == 6:
            self.new_opportunity()
        else:
            self.tries -= 1
            if self.tries == 0:
                self.current = self.next_colour()
                self.new_opportunity()

    def result(self):
        return {
            "complete": self.over,
            "placings": list(self.done),
            "winner": self.winner,
            "pawns_home": {c: self.home(c) for c in self.colours},
            "captures": dict(self.captures),
        }


def check(log):
    """(valid, index_or_None, result_or_None) according to the reference."""
    ref = Reference(log)
    for i, ev in enumerate(log["events"]):
        try:
            ref.event(ev)
        except Bad:
            return False, i, None
    return True, None, ref.result()


def play(log_header, seed, max_events=20000):
    """A complete random game played by the reference itself: a log dict."""
    rng = random.Random(seed)
    log = dict(log_header, events=[])
    ref = Reference(log)
    while not ref.over and len(log["events"]) < max_events:
        c = ref.current
        n = rng.randint(1, 6)
        legal = ref.legal(c, n)
        ev = {"colour": c, "die": n}
        if legal:
            m = rng.choice(legal)
            ev["move"] = [m[1], m[2]]
            if m[0] != c:
                ev["pawn_colour"] = m[0]
            after = list(ref.pawns[c])
            if m[0] == c:
                after[after.index(m[1])] = m[2]
            allowed = ref.huff_allowed(c, legal, m, after)
            if allowed:
                ev["huff"] = rng.choice(sorted(allowed, key=str))
        ref.event(ev)
        log["events"].append(ev)
    return log
