//! SE's chaining rules and the `Chainer` that runs them: Nishio, multiple, dynamic and
//! nested forcing chains (7.5–11+) here, the cycles and forcing chains of the loops rule
//! (6.5–7.x) in [`loops`]. A run's hints come out in SE's order. From ER 9.0 up, a
//! top-level run builds its chains ahead on all threads ([`ahead`]).

use super::ahead::{Built, Room};
use super::nested::{dynamic_sieve, fixed_sieve, grid_id, nested_rule, simple_rules};
use super::potentials::{
    hidden_parents, kcell, kdig, key, kon, off_to_on, on_to_off, pot_name, removed_for, Arena,
    PSet, Parents, Pot, C_ADV, C_CELL, C_NONE, NKEYS, NONE,
};
use super::sieve::{cell_unit, house_unit, Reached, Sieve, Targets};
use super::{
    at_most_one_bit, bit, bits, cell_name, digits, rating, region_name, Context, Hint, Placement,
    Removed, RemovedRc, SeGrid, SeTechnique, BLOCK, COL, CR, PEERS, RC, ROW,
};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// SE's chain-length bonus: +0.1 each time the length passes 4, 6, 8, 12, 16, 24, …
pub(super) fn length_diff(complexity: u32) -> f64 {
    const STEPS: [i64; 23] = [
        4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072,
        4096, 6144, 8192,
    ];
    let length = complexity as i64 - 2;
    let mut added = 0.0;
    let mut i = 0;
    while i < STEPS.len() && length > STEPS[i] {
        added += 0.1;
        i += 1;
    }
    added
}

/// The chaining rules a dynamic chain nested `level` deep runs where it stalls (after
/// the simple rules, from level 1 up), in SE's order.
pub(crate) fn nested_rules(level: u8) -> impl Iterator<Item = ChainRule> {
    let rules = match level {
        0 | 1 => [None, None],
        2 => [Some(ChainRule::LOOPS), None],
        3 => [Some(ChainRule::LOOPS), Some(ChainRule::MULTIPLE)],
        4 => [Some(ChainRule::dynamic(0)), None],
        _ => [
            Some(ChainRule::dynamic(0)),
            Some(ChainRule::dynamic(level - 3)),
        ],
    };
    rules.into_iter().flatten()
}

/// One of SE's `Chaining` rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChainRule {
    pub mult: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
}

impl ChainRule {
    /// SE's Nishio rule (7.5).
    pub(crate) const NISHIO: ChainRule = ChainRule {
        mult: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };
    /// SE's static multiple forcing chains (8.0).
    pub(crate) const MULTIPLE: ChainRule = ChainRule {
        mult: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };

    /// SE's dynamic forcing chains, nested `level` deep (8.5, 9.0, 9.5, …).
    pub(crate) const fn dynamic(level: u8) -> ChainRule {
        ChainRule {
            mult: true,
            dynamic: true,
            nishio: false,
            level,
        }
    }

    pub(crate) const LOOPS: ChainRule = ChainRule {
        mult: false,
        dynamic: false,
        nishio: false,
        level: 0,
    };

    pub(super) fn diff(self) -> f64 {
        if self.level >= 2 {
            rating::NESTED_CHAINS + rating::NESTING_STEP * (self.level - 2) as f64
        } else if self.level == 1 {
            rating::DYNAMIC_CHAINS_PLUS
        } else if self.nishio {
            rating::NISHIO
        } else if self.dynamic {
            rating::DYNAMIC_CHAINS
        } else {
            rating::MULTIPLE_CHAINS
        }
    }

    /// Whether a run looks for what both states of a candidate imply, in a cell with
    /// `card` candidates (double chains).
    pub(super) fn doubles(self, card: u32) -> bool {
        card >= 3 && !self.nishio && self.dynamic
    }

    /// Whether a run looks for what all `n` candidates of a cell, or places of a digit in
    /// a house, imply (cell and region chains).
    pub(super) fn shares(self, n: u32) -> bool {
        !self.nishio && (n == 2 || (self.mult && n > 2))
    }

    /// Level shown in technique names: 0 static, 1 dynamic, 2 dynamic (+), 3+ nested.
    pub(super) fn tech_level(self) -> u8 {
        if self.dynamic {
            1 + self.level
        } else {
            0
        }
    }
}

/// What a chain hint needs to rate and order itself, and to report its dependencies.
pub(super) struct ChainSpec<'a> {
    pub(super) tech: SeTechnique,
    pub(super) base: f64,
    pub(super) sort_key: u8,
    /// The chain targets: their ancestors make up the complexity, and are walked for
    /// nested chains and rule parents.
    pub(super) targets: &'a [u32],
    /// SE treats a source without cause as a cell (cell chains) or house (region chains) step.
    pub(super) null_cause: u8,
    pub(super) outcome: Outcome,
    pub(super) text: String,
}

/// What a chain hint removes, and places.
pub(super) enum Outcome {
    /// What potential `k`, a chain's conclusion, removes (`rem_for`): its candidate when
    /// it is "off"; when "on", it places the digit and removes the cell's others.
    Of(u16),
    /// The candidates a cycle removes.
    Removes(Vec<(u8, u8)>),
}

impl Outcome {
    /// The eliminations as a number below 1458, when they are a conclusion's: one
    /// candidate, or a placement's (known by the placement). Different conclusions can
    /// remove the same: a digit placed in a cell of two removes what the other's "off" does.
    fn slot(&self, g: &SeGrid) -> Option<usize> {
        let &Outcome::Of(k) = self else { return None };
        let (c, d) = (kcell(k), kdig(k));
        let others = g.cand()[c] & !bit(d);
        let index = |d: u8| c * 9 + d as usize - 1;
        Some(match (kon(k), at_most_one_bit(others)) {
            (false, _) => index(d),
            (true, true) => index(others.trailing_zeros() as u8 + 1),
            (true, false) => 729 + index(d),
        })
    }
}

impl ChainSpec<'_> {
    /// The hint on `g`, rated by its complexity `complexity` (parents left to the caller).
    pub(super) fn into_hint(self, g: &SeGrid, complexity: u32) -> Hint {
        let mut h = Hint::new(self.tech, self.base + length_diff(complexity));
        h.complexity = complexity;
        h.sort_key = self.sort_key;
        (h.removals, h.place) = match self.outcome {
            Outcome::Of(k) => rem_for(g, k),
            Outcome::Removes(removals) => (removals, None),
        };
        h.text = self.text;
        h
    }
}

/// SE's complexity of a hint on `targets`: their ancestors, each counted once per target,
/// plus the complexity of every distinct nested hint among them.
pub(super) fn complexity(ar: &Arena, targets: &[u32], queue: &mut Vec<u32>) -> u32 {
    complexity_within(ar, targets, queue, u32::MAX).unwrap_or(u32::MAX)
}

/// `complexity`, or `None` as soon as the count passes `limit`: every node and nested
/// hint only adds to it.
pub(super) fn complexity_within(
    ar: &Arena,
    targets: &[u32],
    queue: &mut Vec<u32>,
    limit: u32,
) -> Option<u32> {
    spread_complexity(targets.iter().map(|&t| (ar, t)), queue, limit)
}

/// `complexity_within` of targets in arenas of their own (chains built ahead, `Built`),
/// as if they were in one.
pub(super) fn spread_complexity<'a>(
    targets: impl IntoIterator<Item = (&'a Arena, u32)>,
    queue: &mut Vec<u32>,
    limit: u32,
) -> Option<u32> {
    let mut total = 0u32;
    let mut seen: Vec<u64> = Vec::new();
    for (ar, t) in targets {
        let within = ar.chain_while(t, queue, |p| {
            count_into(&mut total, &mut seen, &ar.pots[p as usize]);
            total <= limit
        });
        if !within {
            return None;
        }
    }
    Some(total)
}

/// Adds `pot` to a complexity count: one for itself, and its nested hint's complexity
/// if `seen` has not met that hint yet (SE counts each distinct nested chain once).
fn count_into(total: &mut u32, seen: &mut Vec<u64>, pot: &Pot) {
    *total = total.saturating_add(1);
    if let Some(n) = pot.nested {
        if !seen.contains(&n.id) {
            seen.push(n.id);
            *total = total.saturating_add(n.complexity);
        }
    }
}

/// The hint of `spec` with its complexity and, in a nested run, its identity and the
/// removals it rests on: there one walk over its chains finds all three.
pub(super) fn chain_hint(
    g: &SeGrid,
    ar: &Arena,
    context: Context,
    queue: &mut Vec<u32>,
    spec: ChainSpec,
) -> Hint {
    let Some(src) = context.src else {
        let complexity = complexity(ar, spec.targets, queue);
        return spec.into_hint(g, complexity);
    };
    let (mut complexity, mut seen) = (0, Vec::new());
    let mut parents = RuleParents::new(Vec::new());
    let identity = ar.identity(spec.targets, queue, |pot| {
        count_into(&mut complexity, &mut seen, pot);
        pot_parents(g, src, pot, spec.null_cause, &mut parents);
    });
    let mut h = spec.into_hint(g, complexity);
    h.parents = parents.list;
    h.identity = identity;
    h
}

/// The removals a hint's chains rest on: those of each "on" potential of the chains,
/// switched on by a single rule (`null_cause` stands for the starts' own cause).
pub(super) fn pot_parents(
    g: &SeGrid,
    src: &SeGrid,
    pot: &Pot,
    null_cause: u8,
    out: &mut RuleParents,
) {
    let cause = if pot.cause == C_NONE {
        null_cause
    } else {
        pot.cause
    };
    if kon(pot.key) && cause != C_NONE && cause != C_ADV {
        rule_parents(g, src, pot.key, cause, out);
    }
}

/// SE's `collectRuleParents` for one "on" potential `k` (see `removed_for`).
pub(super) fn rule_parents(g: &SeGrid, src: &SeGrid, k: u16, cause: u8, out: &mut RuleParents) {
    for (c, v) in removed_for(g, src, kcell(k), kdig(k), cause) {
        out.add(c, v);
    }
}

/// The candidates a nested hint rests on, in the order found, each once.
pub(super) struct RuleParents {
    pub(super) list: Vec<(u8, u8)>,
    pub(super) seen: [u64; 12],
}

impl RuleParents {
    pub(super) fn new(list: Vec<(u8, u8)>) -> RuleParents {
        let mut p = RuleParents {
            list: Vec::new(),
            seen: [0; 12],
        };
        for (c, v) in list {
            p.add(c as usize, v);
        }
        p
    }

    /// An empty list in the room of `list`.
    pub(super) fn reusing(mut list: Vec<(u8, u8)>) -> RuleParents {
        list.clear();
        RuleParents {
            list,
            seen: [0; 12],
        }
    }

    pub(super) fn add(&mut self, c: usize, v: u8) {
        let i = c * 9 + v as usize - 1;
        if self.seen[i / 64] >> (i % 64) & 1 == 0 {
            self.seen[i / 64] |= 1 << (i % 64);
            self.list.push((c as u8, v));
        }
    }
}

/// Whether conclusion `k` removes anything: an "on" in a cell with other candidates.
pub(super) fn removes(g: &SeGrid, k: u16) -> bool {
    !kon(k) || g.cand()[kcell(k)] & !bit(kdig(k)) != 0
}

/// What conclusion `k` removes, and places.
pub(super) fn rem_for(g: &SeGrid, k: u16) -> (Vec<(u8, u8)>, Placement) {
    let (c, d) = (kcell(k), kdig(k));
    if kon(k) {
        (
            digits(g.cand()[c] & !bit(d))
                .map(|v| (c as u8, v))
                .collect(),
            Some((c as u8, d)),
        )
    } else {
        (vec![(c as u8, d)], None)
    }
}

pub(super) struct Chainer<'a> {
    pub(super) chain_rule: ChainRule,
    pub(super) context: Context<'a>,
    /// Reused arena (from `SPARE`): chaining creates thousands of them per step.
    pub(super) arena: Arena,
    pub(super) adv_cache: AdvCache,
    /// Whether runs take the shortcuts that cannot change their hints: the sieve of
    /// multiple-chain runs and the chains it stops early, deferred parents in level-0
    /// runs, chains built ahead on the pool (off only to test them).
    pub(super) shortcuts: bool,
    /// Whether the loops rule has searched from any candidate (most runs rule out every
    /// search beforehand: `unary`).
    pub(super) searched: bool,
    /// The sieve of the multiple-chain run under way.
    pub(super) sieve: Option<Sieve>,
    /// The run's working vectors (from `SPARE`).
    pub(super) scratch: Scratch,
    /// Chainings built ahead on all threads (`prebuild`), by starting potential key.
    pub(super) built: Vec<Option<Built>>,
    /// The identity of the grid the run's chains start from (`grid_id`), once needed.
    pub(super) src_id: Option<u64>,
    /// The "on" and "off" queues of the loops rule's searches, reused from search to
    /// search (`queues`).
    pub(super) queues: (VecDeque<u32>, VecDeque<u32>),
    /// The chain under way's room (`Room`), from level 4 (`prebuild`).
    pub(super) room: Room,
    /// A top-level run's best hint so far in SE's order, kept only when the run is asked
    /// for its first hint alone (`first_only`, `note`): a hint found later that does not
    /// beat it never comes first, so the loops rule's searches stop where they could only
    /// find such hints (`longest_to_beat`), and level-0 runs drop them and skip the units
    /// that could only give them (`all_beaten`).
    pub(super) best: Option<Rank>,
}

/// Whether candidate `s`, switched on, switches potential `k` off at once: another
/// candidate of its cell, or its digit in a peer.
fn follows(s: u16, k: u16) -> bool {
    let (c, o) = (kcell(s), kcell(k));
    !kon(k) && (c == o) != (kdig(s) == kdig(k)) && (c == o || PEERS[c] >> o & 1 != 0)
}

/// The fewest ancestors (itself included) potential `k` can have in the chain from
/// `s` on `g`, when both are an outcome and a start of the chains of a unit or candidate
/// (`Chainer::all_beaten`). Each potential of such a chain has a key of its own. From a
/// start switched on: one if `k` is the start, two if the start switches it off at once.
/// A candidate switched on otherwise rests on the start and on every other candidate of
/// its cell, or every other place of its digit in one of its houses, switched off: one
/// more than the fewest candidates of its cell or places of its houses. A candidate
/// switched off otherwise rests on one switched on that is not the start: four or more.
/// A start switched off comes with its candidate switched on (double chains, in cells
/// of three candidates or more): what taking that out switches on at once is its
/// digit's other place in a house of two, which the chain from it switched on takes
/// out, so that is no outcome of both: three or more.
fn fewest_ancestors(g: &SeGrid, s: u16, k: u16) -> u32 {
    let (o, e) = (kcell(k), kdig(k));
    match () {
        _ if s == k => 1,
        _ if !kon(s) => 3,
        _ if follows(s, k) => 2,
        _ if !kon(k) => 4,
        _ => {
            1 + CR[o]
                .iter()
                .fold(g.card(o), |m, &h| m.min(g.places(h as usize, e) as u32))
        }
    }
}

/// The start of `buf` filled with `keys` (at most nine: a cell's candidates or a
/// digit's places in a house), without a vector for each of the thousands of units.
fn collect_starts(buf: &mut [u16; 9], keys: impl Iterator<Item = u16>) -> &[u16] {
    let mut n = 0;
    for (b, k) in buf.iter_mut().zip(keys) {
        *b = k;
        n += 1;
    }
    &buf[..n]
}

/// A chaining from one candidate switched on: what it turned on and off, and the
/// contradiction it met, if any.
pub(super) type OnChain = (PSet, PSet, Option<(u32, u32)>);

/// What a chaining switched on (`on`) or off.
pub(super) fn side(chain: &OnChain, on: bool) -> &PSet {
    if on {
        &chain.0
    } else {
        &chain.1
    }
}

/// Chainings from candidates switched on, by potential key.
#[derive(Default)]
pub(super) struct Memo {
    /// Slot of each candidate in `chains` (`NONE`: not computed).
    pub(super) slot: Vec<u32>,
    pub(super) chains: Vec<OnChain>,
}

impl Memo {
    pub(super) fn get(&self, on: u16) -> Option<&OnChain> {
        let i = *self.slot.get(on as usize / 2)?;
        self.chains.get(i as usize)
    }

    pub(super) fn insert(&mut self, on: u16, chain: OnChain) {
        if self.slot.is_empty() {
            self.slot = vec![NONE; NKEYS / 2];
        }
        self.slot[on as usize / 2] = self.chains.len() as u32;
        self.chains.push(chain);
    }

    /// Empties the memo, handing back its sets.
    pub(super) fn drain(&mut self) -> std::vec::Drain<'_, OnChain> {
        for s in &mut self.slot {
            *s = NONE;
        }
        self.chains.drain(..)
    }
}

/// A rule run's working vectors, handed from run to run on a thread (`SPARE`): grown
/// afresh in each of the thousands of nested runs a step starts, they cost more than
/// what they hold.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) buf_off: Vec<(u16, u8)>,
    /// One removal's parents (`advanced`).
    pub(super) buf_parents: Vec<u32>,
    /// Chains from candidates switched on, within one rule run.
    pub(super) memo: Memo,
    /// Scratch space of `Arena::chain`.
    pub(super) queue: Vec<u32>,
    /// Ancestor counts of the run's potentials (0: not counted yet), level-0 runs only.
    pub(super) counts: Vec<u32>,
    /// Scratch space of `ancestors`.
    pub(super) path: Vec<u32>,
    /// The hints of a nested level-0 run whose parents are still to be found (`finish`):
    /// their targets (a range of `hint_targets`) and null cause.
    pub(super) pending: Vec<(u32, u32, u8)>,
    /// The hints of a top-level run, in order, whose complexities are still to be found
    /// (`deferred_complexities`): their targets (a range of `hint_targets`) and base.
    pub(super) deferred: Vec<(u32, u32, f64)>,
    /// The targets of pending and deferred hints, one after another.
    pub(super) hint_targets: Vec<u32>,
    /// Scratch space of `finish`: one hint's parents.
    pub(super) parents: Vec<(u8, u8)>,
    /// Per set of eliminations (`Outcome::slot`), the hint of a level-0 run kept for it
    /// so far: its place in the run's list, complexity and kind (`hint`).
    pub(super) best: Vec<(u32, u32, u8)>,
    /// The slots of `best` in use.
    pub(super) best_used: Vec<u16>,
}

impl Scratch {
    /// Empties the vectors, keeping their room (the memo empties itself).
    fn clear(&mut self) {
        self.buf_off.clear();
        self.buf_parents.clear();
        self.queue.clear();
        self.counts.clear();
        self.path.clear();
        self.pending.clear();
        self.deferred.clear();
        self.hint_targets.clear();
        self.parents.clear();
        self.forget_best();
    }

    /// Whether a hint of rank `rank` (complexity, kind) removing the set `slot` is beaten
    /// or tied by one kept before; if not, it will be kept as `out`'s next, and any kept
    /// before is marked `DROPPED`.
    fn beaten(&mut self, slot: usize, rank: (u32, u8), out: &mut [Hint]) -> bool {
        if self.best.is_empty() {
            self.best.resize(2 * 729, (NONE, 0, 0));
        }
        let (kept, complexity, kind) = self.best[slot];
        if kept != NONE {
            if rank >= (complexity, kind) {
                return true;
            }
            out[kept as usize].pending = DROPPED;
        } else {
            self.best_used.push(slot as u16);
        }
        self.best[slot] = (out.len() as u32, rank.0, rank.1);
        false
    }

    /// Empties `best`.
    fn forget_best(&mut self) {
        for &slot in &self.best_used {
            self.best[slot as usize] = (NONE, 0, 0);
        }
        self.best_used.clear();
    }
}

/// `Hint::pending` of a hint that a later one with the same eliminations beat (`hint`).
const DROPPED: u32 = NONE - 1;

/// Sets no longer used, and the arenas and scratch vectors of finished rule runs.
type Spare = (Vec<PSet>, Vec<Arena>, Vec<Scratch>);

thread_local! {
    /// What finished rule runs leave for reuse on this thread: nested rules start
    /// thousands of runs per step, and a fresh set costs a page.
    pub(super) static SPARE: std::cell::RefCell<Spare> = Default::default();
}

impl Drop for Chainer<'_> {
    fn drop(&mut self) {
        let arena = std::mem::take(&mut self.arena);
        let mut scratch = std::mem::take(&mut self.scratch);
        // A memo still holding chains (a run cut short) is not handed on.
        if !scratch.memo.chains.is_empty() {
            scratch.memo = Memo::default();
        }
        scratch.clear();
        SPARE.with(|s| {
            let mut s = s.borrow_mut();
            s.1.push(arena);
            s.2.push(scratch);
        });
    }
}

pub(super) type AdvCache = FxHashMap<[u16; 81], RemovedRc>;

impl<'a> Chainer<'a> {
    pub(super) fn new(chain_rule: ChainRule, context: Context<'a>) -> Chainer<'a> {
        let (arena, scratch) = SPARE.with(|s| {
            let mut s = s.borrow_mut();
            (s.1.pop().unwrap_or_default(), s.2.pop().unwrap_or_default())
        });
        Chainer {
            chain_rule,
            context,
            arena,
            adv_cache: AdvCache::default(),
            shortcuts: true,
            searched: false,
            sieve: None,
            scratch,
            built: Vec::new(),
            queues: Default::default(),
            src_id: None,
            room: Room::Any,
            best: None,
        }
    }

    /// The loops rule's queues, emptied (hand them back to `queues` after the search).
    pub(super) fn queues(&mut self) -> (VecDeque<u32>, VecDeque<u32>) {
        let (mut pon, mut poff) = std::mem::take(&mut self.queues);
        pon.clear();
        poff.clear();
        (pon, poff)
    }

    pub(super) fn set(&mut self) -> PSet {
        SPARE
            .with(|s| s.borrow_mut().0.pop())
            .unwrap_or_else(PSet::new)
    }

    pub(super) fn recycle(&mut self, mut s: PSet) {
        s.reset();
        SPARE.with(|spare| spare.borrow_mut().0.push(s));
    }

    pub(super) fn take_arena(&mut self) -> Arena {
        let mut ar = std::mem::take(&mut self.arena);
        ar.clear(self.context.explain);
        ar
    }

    /// SE's `doChaining`: propagate from the potentials in `to_on`/`to_off` until a
    /// potential is both on and off (returned) or nothing new follows.
    ///
    /// With `targets`, the chain stops once it has reached them all: what it found up to
    /// there, and why, is what the full chain finds (`Sieve::targets`).
    ///
    /// `g` is a copy of `src`, the grid the chain starts from, and is left so: a dynamic
    /// chain reduces it as it goes and copies `src` back at the end (a run's chains all
    /// start from its grid, so they share one copy instead of saving one each).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn do_chaining(
        &mut self,
        src: &SeGrid,
        g: &mut SeGrid,
        ar: &mut Arena,
        to_on: &mut PSet,
        to_off: &mut PSet,
        mut targets: Option<&mut Targets>,
    ) -> Option<(u32, u32)> {
        debug_assert!(g == src, "a chain starts from its run's grid");
        let mut done = |k: u16| targets.as_deref_mut().is_some_and(|t| t.reached(k));
        // The starts count too (a chain with nothing to reach stops at once).
        let starts = to_on.order.iter().chain(&to_off.order).map(|&p| ar.key(p));
        if starts.map(&mut done).last().unwrap_or(false) {
            return None;
        }
        let y = !self.chain_rule.nishio;
        // The sets keep their potentials in insertion order: what is left to process is
        // the part of each after its cursor.
        let (mut next_on, mut next_off) = (0, 0);
        let mut result = None;
        // The consequences of the potential under way, in a list kept for the whole chain.
        let mut buf = std::mem::take(&mut self.scratch.buf_off);
        'main: while next_on < to_on.order.len() || next_off < to_off.order.len() {
            if let Some(&p) = to_on.order.get(next_on) {
                next_on += 1;
                buf.clear();
                on_to_off(g, ar.key(p), y, &mut buf);
                for &(k, cause) in &buf {
                    if let Some(on) = to_on.get(k | 1) {
                        let off = ar.add(k, cause, &[p], None);
                        result = Some((on, off));
                        break 'main;
                    }
                    if !to_off.contains(k) {
                        let i = ar.add(k, cause, &[p], None);
                        to_off.add_new(k, i);
                        if done(k) {
                            break 'main;
                        }
                    }
                }
            } else if let Some(&p) = to_off.order.get(next_off) {
                next_off += 1;
                let k0 = ar.key(p);
                buf.clear();
                off_to_on(g, k0, y, true, &mut buf);
                for &(k, cause) in &buf {
                    let conflict = to_off.get(k & !1);
                    if conflict.is_none() && to_on.contains(k) {
                        continue;
                    }
                    let parents = if self.chain_rule.dynamic {
                        hidden_parents(g, src, to_off, p, k0, cause)
                    } else {
                        Parents::one(p)
                    };
                    let i = ar.add(k, cause, parents.as_slice(), None);
                    if let Some(off) = conflict {
                        result = Some((i, off));
                        break;
                    }
                    to_on.add_new(k, i);
                    if done(k) {
                        break 'main;
                    }
                }
                if self.chain_rule.dynamic {
                    g.remove(kcell(k0), kdig(k0));
                }
                if result.is_some() {
                    break 'main;
                }
            }
            let idle = next_on == to_on.order.len() && next_off == to_off.order.len();
            if idle && self.chain_rule.level > 0 {
                let before = to_off.order.len();
                let nested = self.advanced(g, src, ar, to_off);
                if nested && self.past_room(ar, &to_off.order[before..]) {
                    break;
                }
            }
        }
        self.scratch.buf_off = buf;
        if self.chain_rule.dynamic {
            g.clone_from(src);
        }
        result
    }

    /// SE's `getAdvancedPotentials`: candidates removed by simpler rules on the grid as the
    /// chain has reduced it, provided the rule depends on something the chain removed,
    /// switched off (in `ar` and `to_off`) unless they are already. Returns whether the
    /// nested chaining rules removed them (the simple rules found nothing).
    pub(super) fn advanced(
        &mut self,
        g: &SeGrid,
        src: &SeGrid,
        ar: &mut Arena,
        to_off: &mut PSet,
    ) -> bool {
        // The starting grid is the same for every chain of one rule run, so what the rules
        // find depends on the reduced grid alone: different assumptions often reach the
        // same reduced grid, and the nested rules are by far the costliest part.
        let found = match self.adv_cache.get(g.cand()) {
            Some(f) => f.clone(),
            None => {
                let id = *self.src_id.get_or_insert_with(|| grid_id(src));
                let simple = simple_rules(g, src, id, self.context.nested);
                let f = if simple.is_empty() {
                    Rc::new(self.chain_rules(g, src))
                } else {
                    simple
                };
                self.adv_cache.insert(*g.cand(), f.clone());
                f
            }
        };
        let ps = &mut self.scratch.buf_parents;
        for (k, parents, nested) in found.iter() {
            if to_off.contains(*k) {
                continue;
            }
            ps.clear();
            ps.extend((parents.iter()).filter_map(|&(c, d)| to_off.get(key(c as usize, d, false))));
            let i = ar.add(*k, C_ADV, ps, *nested);
            to_off.add_new(*k, i);
        }
        found.first().is_some_and(|(_, _, nested)| nested.is_some())
    }

    /// Whether a level-4 chain may stop, its nested rule having just switched off `new`:
    /// whatever it could still add would give any hint resting on it more complexity than
    /// the chain's room (`Room`).
    ///
    /// Everything added from here on descends from one of `new`, so counts more than the
    /// least of them. The chain goes on from `new` alone, and each later removal by a rule
    /// rests on one made from here on: a rule's hint resting only on earlier removals (its
    /// parents: every candidate gone from the cells and houses its reasoning uses) holds
    /// on this round's grid too, where the simple rules found nothing and the nested rule
    /// found every elimination it could make (each resting on a removal of the chain: the
    /// step's grid has no dynamic forcing chain, or the run would not be at level 4). At
    /// level 5 a second nested rule runs only where the first finds nothing, and may find
    /// later what the first hid. Test: `what_follows_nested_removals_descends_from_them`.
    fn past_room(&mut self, ar: &Arena, new: &[u32]) -> bool {
        let room = self.room.get();
        if room == u32::MAX || new.is_empty() {
            return false;
        }
        let queue = &mut self.scratch.queue;
        let most = room.saturating_sub(1);
        (new.iter()).all(|&p| complexity_within(ar, &[p], queue, most).is_none())
    }

    /// The candidates removed by the first of the nested chaining rules that removes any
    /// (the simple rules found none).
    pub(super) fn chain_rules(&self, g: &SeGrid, src: &SeGrid) -> Removed {
        let mut res = Vec::new();
        for chain_rule in nested_rules(self.chain_rule.level) {
            for (removals, parents, nested) in
                nested_rule(g, chain_rule, self.context.nested).iter()
            {
                // Only what rests on a candidate the chain removed counts.
                let parents: Vec<(u8, u8)> = parents
                    .iter()
                    .copied()
                    .filter(|&(c, d)| src.has(c as usize, d))
                    .collect();
                if parents.is_empty() {
                    continue;
                }
                for &(c, d) in removals {
                    res.push((key(c as usize, d, false), parents.clone(), Some(nested)));
                }
            }
            if !res.is_empty() {
                return res;
            }
        }
        res
    }

    /// A hint's text, written only when asked for: nested rules make thousands of hints.
    pub(super) fn text(&self, f: impl FnOnce() -> String) -> String {
        if self.context.explain {
            f()
        } else {
            String::new()
        }
    }

    pub(super) fn tech(&self, kind: u8) -> SeTechnique {
        let l = self.chain_rule.tech_level();
        match kind {
            _ if self.chain_rule.nishio => SeTechnique::Nishio,
            0 => SeTechnique::ContradictionForcingChains(l),
            1 => SeTechnique::DoubleForcingChains(l),
            2 => SeTechnique::CellForcingChains(l),
            _ => SeTechnique::RegionForcingChains(l),
        }
    }

    /// SE's `getMultipleChainsHintList` (multiple, dynamic, Nishio and nested rules).
    pub(super) fn multiple(&mut self, g: &SeGrid, out: &mut Vec<Hint>) {
        let mut gm = g.clone();
        let (dynamic, nishio) = (self.chain_rule.dynamic, self.chain_rule.nishio);
        self.scratch.counts.clear();
        self.scratch.pending.clear();
        self.scratch.hint_targets.clear();
        self.scratch.forget_best();
        // One arena for the whole run: the chains from a candidate switched on are shared
        // between its own cell's chains and the region chains of its houses.
        let mut ar = self.take_arena();
        // Chains from every candidate: most of what they could combine into finds nothing,
        // and a sieve without reasons tells which (see `sieve`).
        let sieve = match self.chain_rule {
            _ if !self.shortcuts => None,
            ChainRule::MULTIPLE => Some(fixed_sieve(g, self.context.nested)),
            chain_rule if chain_rule == ChainRule::dynamic(0) => {
                Some(dynamic_sieve(g, self.context.nested))
            }
            ChainRule::NISHIO => Some(Sieve::nishio(g)),
            _ => None,
        };
        if sieve.as_ref().is_some_and(Sieve::is_empty) {
            self.arena = ar;
            return;
        }
        self.sieve = sieve;
        if self.shortcuts && self.chain_rule.level > 0 && self.context.src.is_none() {
            self.prebuild(g);
        }
        for c in 0..81 {
            if g.val()[c] != 0 {
                continue;
            }
            let card = g.card(c);
            if !(card > 2 || (card > 1 && dynamic)) {
                continue;
            }
            let reduction = self.chain_rule.doubles(card);
            for d in digits(g.cand()[c]) {
                if self.sieve.as_ref().map_or(true, |s| s.binary(c, d)) {
                    self.binary(g, &mut gm, &mut ar, c, d, reduction, out);
                }
                if !nishio {
                    self.region(g, &mut gm, &mut ar, c, d, out);
                }
            }
            if !self.chain_rule.shares(card) || self.sieve.as_ref().is_some_and(|s| !s.cell(c)) {
                continue;
            }
            let mut starts = [0; 9];
            let starts = collect_starts(&mut starts, digits(g.cand()[c]).map(|d| key(c, d, true)));
            if self.may_share(g, &mut gm, &mut ar, cell_unit(c), starts, 5) {
                for d in digits(g.cand()[c]) {
                    self.on_chain(g, &mut gm, &mut ar, c, d);
                }
                let what = || format!("each candidate of {}", cell_name(c));
                self.shared_outcomes(g, &ar, starts, (2, 5, C_CELL), &what, out);
            }
        }
        let mut memo = std::mem::take(&mut self.scratch.memo);
        for (on, off, _) in memo.drain() {
            self.recycle(on);
            self.recycle(off);
        }
        self.scratch.memo = memo;
        self.deferred_complexities(&ar, out);
        self.arena = ar;
        self.sieve = None;
        self.built.clear();
    }

    /// The chaining from potential `k` (a candidate switched on or off) in `ar`: moved
    /// there if it was built ahead (`prebuild`), else built, stopping at the sieve's
    /// targets. `gm` is a copy of the run's grid `g`, and is left so (`do_chaining`).
    pub(super) fn chaining(
        &mut self,
        g: &SeGrid,
        gm: &mut SeGrid,
        ar: &mut Arena,
        k: u16,
    ) -> OnChain {
        let Some(b) = self.built.get_mut(k as usize).and_then(Option::take) else {
            let mut targets =
                (self.sieve.as_ref()).and_then(|s| s.targets(kcell(k), kdig(k), kon(k)));
            return self.chain_from(g, gm, ar, k, targets.as_mut());
        };
        let offset = ar.append(&b.arena);
        let (mut on, mut off) = (self.set(), self.set());
        for &i in &b.on {
            on.add(ar, i + offset);
        }
        for &i in &b.off {
            off.add(ar, i + offset);
        }
        (on, off, b.absurd.map(|(x, y)| (x + offset, y + offset)))
    }

    /// Builds the chaining from potential `k` in `ar`.
    pub(super) fn chain_from(
        &mut self,
        g: &SeGrid,
        gm: &mut SeGrid,
        ar: &mut Arena,
        k: u16,
        targets: Option<&mut Targets>,
    ) -> OnChain {
        let (mut on, mut off) = (self.set(), self.set());
        let p = ar.add(k, C_NONE, &[], None);
        if kon(k) {
            on.add(ar, p);
        } else {
            off.add(ar, p);
        }
        let absurd = self.do_chaining(g, gm, ar, &mut on, &mut off, targets);
        (on, off, absurd)
    }

    /// The chaining from candidate `d` of cell `c` switched on, kept in `memo`: computed
    /// once per rule run (SE repeats it for cell and region chains; the outcome is the same).
    pub(super) fn on_chain(
        &mut self,
        g: &SeGrid,
        gm: &mut SeGrid,
        ar: &mut Arena,
        c: usize,
        d: u8,
    ) {
        let k = key(c, d, true);
        if self.scratch.memo.get(k).is_some() {
            return;
        }
        let chain = self.chaining(g, gm, ar, k);
        self.scratch.memo.insert(k, chain);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn binary(
        &mut self,
        g: &SeGrid,
        gm: &mut SeGrid,
        ar: &mut Arena,
        c: usize,
        d: u8,
        reduction: bool,
        out: &mut Vec<Hint>,
    ) {
        // Where neither chain meets a contradiction, they yield double chains alone.
        let starts = [key(c, d, true), key(c, d, false)];
        if let Some(both) = self.sieve.as_ref().and_then(|s| s.doubles(c, d)) {
            if self.all_beaten(g, ar, &both, &starts, 1) {
                return;
            }
        }
        let contradiction = self.chain_rule.dynamic || self.chain_rule.nishio;
        self.on_chain(g, gm, ar, c, d);
        let absurd = self.scratch.memo.get(key(c, d, true)).and_then(|ch| ch.2);
        if let (true, Some(clash)) = (contradiction, absurd) {
            let removals = Outcome::Of(key(c, d, false));
            self.contradiction(g, ar, key(c, d, true), clash, removals, out);
        }
        // The chains from the candidate switched off serve contradictions and double
        // chains only (static multiple chains have neither).
        if !contradiction && !reduction {
            return;
        }
        let (off_on, off_off, absurd) = self.chaining(g, gm, ar, key(c, d, false));
        if let (true, Some(clash)) = (contradiction, absurd) {
            if removes(g, key(c, d, true)) {
                let place = Outcome::Of(key(c, d, true));
                self.contradiction(g, ar, key(c, d, false), clash, place, out);
            }
        }
        if reduction {
            let memo = std::mem::take(&mut self.scratch.memo);
            if let Some((on_on, on_off, _)) = memo.get(key(c, d, true)) {
                for (from, other) in [(on_on, &off_on), (on_off, &off_off)] {
                    for &p in &from.order {
                        let k = ar.key(p);
                        let Some(q) = other.get(k) else { continue };
                        if !removes(g, k) {
                            continue;
                        }
                        let t = [p, q];
                        let spec = ChainSpec {
                            tech: self.tech(1),
                            base: self.chain_rule.diff(),
                            sort_key: 1,
                            targets: &t,
                            null_cause: C_NONE,
                            outcome: Outcome::Of(k),
                            text: self.text(|| {
                                format!(
                                    "both {0}=… and {0}<>… imply {1}: {2}; {3}",
                                    cell_name(c),
                                    pot_name(k),
                                    ar.describe(p),
                                    ar.describe(q)
                                )
                            }),
                        };
                        self.hint(g, ar, spec, out);
                    }
                }
            }
            self.scratch.memo = memo;
        }
        self.recycle(off_on);
        self.recycle(off_off);
    }

    /// Hints for what every chaining from `starts` (the candidates of a cell, or the places
    /// of a digit in a house, all memoised) implies: the first chaining's outcomes in their
    /// order, kept when all the others share them. `(kind, sort_key, null_cause)` say
    /// which technique (2 cell, 3 region), `what` names the starting set in texts.
    pub(super) fn shared_outcomes(
        &mut self,
        g: &SeGrid,
        ar: &Arena,
        starts: &[u16],
        (kind, sort_key, null_cause): (u8, u8, u8),
        what: &dyn Fn() -> String,
        out: &mut Vec<Hint>,
    ) {
        let memo = std::mem::take(&mut self.scratch.memo);
        let chains: Vec<&OnChain> = starts.iter().filter_map(|&k| memo.get(k)).collect();
        let mut targets = Vec::with_capacity(chains.len());
        for on in [true, false] {
            for &p in &side(chains[0], on).order {
                let k = ar.key(p);
                if !chains[1..].iter().all(|ch| side(ch, on).contains(k)) {
                    continue;
                }
                if !removes(g, k) {
                    continue;
                }
                targets.clear();
                targets.extend(chains.iter().filter_map(|ch| side(ch, on).get(k)));
                let text = self.text(|| {
                    format!(
                        "{} implies {}: {}",
                        what(),
                        pot_name(k),
                        ar.describe_all(&targets)
                    )
                });
                let spec = ChainSpec {
                    tech: self.tech(kind),
                    base: self.chain_rule.diff(),
                    sort_key,
                    targets: &targets,
                    null_cause,
                    outcome: Outcome::Of(k),
                    text,
                };
                self.hint(g, ar, spec, out);
            }
        }
        self.scratch.memo = memo;
    }

    /// The hint of a chain from potential `k` that met a contradiction (`a` and `b`,
    /// a potential switched both on and off), into `out`.
    pub(super) fn contradiction(
        &mut self,
        g: &SeGrid,
        ar: &Arena,
        k: u16,
        (a, b): (u32, u32),
        outcome: Outcome,
        out: &mut Vec<Hint>,
    ) {
        let spec = ChainSpec {
            tech: self.tech(0),
            base: self.chain_rule.diff(),
            sort_key: 7,
            targets: &[a, b],
            null_cause: C_NONE,
            outcome,
            text: self.text(|| {
                format!(
                    "{} leads to a contradiction: {} and {}",
                    pot_name(k),
                    ar.describe(a),
                    ar.describe(b)
                )
            }),
        };
        self.hint(g, ar, spec, out);
    }

    /// A hint of a multiple-chain run, into `out`. Level-0 runs have no nested chains, so
    /// a hint's complexity is the sum of its targets' ancestor counts (`ancestors`), known
    /// at once: a hint that an earlier one with the same eliminations beats or ties in
    /// SE's order is dropped here (`best_per_removals` would drop it), and one that beats
    /// an earlier one drops that (most hints of a nested run repeat another's
    /// eliminations, eight in nine on the slowest puzzles). The removals a nested run's
    /// hint rests on are found only for the hints left at the end (`finish`).
    pub(super) fn hint(&mut self, g: &SeGrid, ar: &Arena, spec: ChainSpec, out: &mut Vec<Hint>) {
        if !self.context.explain {
            return self.rated_hint(g, ar, spec, out);
        }
        let premises = ar.premises(spec.targets, &mut self.scratch.queue);
        let before = out.len();
        self.rated_hint(g, ar, spec, out);
        let added = out.len() > before;
        if let Some(h) = out.last_mut().filter(|_| added) {
            h.premises = premises.into_iter().map(|p| (p, None)).collect();
        }
    }

    /// `hint`, reasoning aside.
    fn rated_hint(&mut self, g: &SeGrid, ar: &Arena, spec: ChainSpec, out: &mut Vec<Hint>) {
        if self.chain_rule.level > 0 && self.shortcuts && self.context.src.is_none() {
            // A top-level run: its thousands of hints' complexities are found together,
            // on all threads, once the run is over.
            let start = self.scratch.hint_targets.len() as u32;
            self.scratch.hint_targets.extend_from_slice(spec.targets);
            let end = self.scratch.hint_targets.len() as u32;
            self.scratch.deferred.push((start, end, spec.base));
            out.push(spec.into_hint(g, 0));
            return;
        }
        if self.chain_rule.level > 0 || !self.shortcuts {
            out.push(chain_hint(
                g,
                ar,
                self.context,
                &mut self.scratch.queue,
                spec,
            ));
            return;
        }
        let complexity = (spec.targets.iter()).map(|&t| self.ancestors(ar, t)).sum();
        // The hints of a run share their base: SE's order is complexity, then kind.
        if self
            .best
            .is_some_and(|b| (complexity, spec.sort_key) >= (b.1, b.2))
        {
            return;
        }
        if let Some(slot) = spec.outcome.slot(g) {
            if self.scratch.beaten(slot, (complexity, spec.sort_key), out) {
                return;
            }
        }
        if self.context.src.is_none() {
            let h = spec.into_hint(g, complexity);
            self.note(&h);
            out.push(h);
            return;
        }
        let start = self.scratch.hint_targets.len() as u32;
        self.scratch.hint_targets.extend_from_slice(spec.targets);
        let pending = (
            start,
            self.scratch.hint_targets.len() as u32,
            spec.null_cause,
        );
        let mut h = spec.into_hint(g, complexity);
        h.pending = self.scratch.pending.len() as u32;
        self.scratch.pending.push(pending);
        out.push(h);
    }

    /// The ancestors of potential `t` in a level-0 run (itself included, SE's
    /// `getAncestorCount`), kept per potential. Each potential of a level-0 chain has a
    /// key of its own: one is added only if neither it nor its opposite is there yet,
    /// and the chain stops at the first whose opposite is. So a potential with a single
    /// parent counts one more than its parent, and only those with several parents are
    /// walked, key by key.
    fn ancestors(&mut self, ar: &Arena, t: u32) -> u32 {
        let Scratch {
            counts,
            path,
            queue,
            ..
        } = &mut self.scratch;
        if counts.len() <= t as usize {
            counts.resize(ar.pots.len(), 0);
        }
        // Up the single parents to a potential counted, walked, or a start.
        path.clear();
        let mut p = t;
        while counts[p as usize] == 0 {
            match ar.parents(p) {
                &[q] => {
                    path.push(p);
                    p = q;
                }
                _ => {
                    let mut n = 0;
                    ar.chain(p, queue, |_| n += 1);
                    counts[p as usize] = n;
                }
            }
        }
        let mut n = counts[p as usize];
        for &q in path.iter().rev() {
            n += 1;
            counts[q as usize] = n;
        }
        counts[t as usize]
    }

    /// Finds the parents of the hints `hint` left pending.
    pub(super) fn finish(&mut self, g: &SeGrid, hints: &mut [Hint]) {
        let Some(src) = self.context.src else { return };
        for h in hints.iter_mut().filter(|h| h.pending != NONE) {
            let (start, end, null_cause) = self.scratch.pending[h.pending as usize];
            // Gathered in a list reused from hint to hint, then copied at their size:
            // grown from nothing, the lists took 3% of the slowest puzzle's time.
            let mut parents = RuleParents::reusing(std::mem::take(&mut self.scratch.parents));
            let targets = &self.scratch.hint_targets[start as usize..end as usize];
            h.identity = self
                .arena
                .identity(targets, &mut self.scratch.queue, |pot| {
                    pot_parents(g, src, pot, null_cause, &mut parents)
                });
            h.parents = parents.list.clone();
            self.scratch.parents = parents.list;
            h.pending = NONE;
        }
    }

    /// Region forcing chains of digit `d` in the houses of cell `c` where `c` is the
    /// digit's first place (each house is taken once).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn region(
        &mut self,
        g: &SeGrid,
        gm: &mut SeGrid,
        ar: &mut Arena,
        c: usize,
        d: u8,
        out: &mut Vec<Hint>,
    ) {
        for t in [BLOCK, ROW, COL] {
            let r = CR[c][t] as usize;
            // Houses list their cells in index order: the first place is the lowest cell.
            if !self.chain_rule.shares(g.places(r, d).into())
                || g.cells(r, d).trailing_zeros() as usize != c
            {
                continue;
            }
            if self.sieve.as_ref().is_some_and(|s| !s.region(r, d)) {
                continue;
            }
            let pp = g.pos(r, d);
            let mut starts = [0; 9];
            let starts = collect_starts(
                &mut starts,
                bits(pp).map(|i| key(RC[r][i] as usize, d, true)),
            );
            if !self.may_share(g, gm, ar, house_unit(r, d), starts, 6) {
                continue;
            }
            for i in bits(pp) {
                self.on_chain(g, gm, ar, RC[r][i] as usize, d);
            }
            let what = || format!("each place of {d} in {}", region_name(r));
            self.shared_outcomes(g, ar, starts, (3, 6, 2 + t as u8), &what, out);
        }
    }

    /// Whether the chains from `starts` (candidates switched on: a cell's, or a digit's
    /// places in a house) may yield a hint of kind `sort_key` where the sieve cannot
    /// tell (`Sieve::shares`). Those that meet a contradiction are built first (their
    /// own contradictions need them) and must hold some of what the others share; and
    /// each outcome they share must be able to beat the hint the run keeps for its
    /// eliminations (`all_beaten`).
    fn may_share(
        &mut self,
        g: &SeGrid,
        gm: &mut SeGrid,
        ar: &mut Arena,
        unit: usize,
        starts: &[u16],
        sort_key: u8,
    ) -> bool {
        let Some(mut shared) = self.sieve.as_ref().and_then(|s| s.shares(unit)) else {
            return true;
        };
        for &k in starts {
            let (c, d) = (kcell(k), kdig(k));
            if !self.sieve.as_ref().is_some_and(|s| s.absurd(c, d)) {
                continue;
            }
            self.on_chain(g, gm, ar, c, d);
            let Some((on, off, _)) = self.scratch.memo.get(k) else {
                continue;
            };
            // Looked up where they are fewer than the chain's potentials (hundreds).
            if shared.len() <= 64 {
                shared.retain(|p| if kon(p) { on } else { off }.contains(p));
            } else {
                shared = shared.and(&Reached::of(on.keys.iter().chain(&off.keys).copied()));
            }
        }
        shared != Reached::default() && !self.all_beaten(g, ar, &shared, starts, sort_key)
    }

    /// Whether every hint the chains from `starts` may yield (their shared outcomes
    /// `shared`, as kind `sort_key`) would lose to one a level-0 run keeps already for
    /// its eliminations (`Scratch::beaten`), or to its best when only the first hint
    /// matters (`best`), as most do: a hint's complexity is the sum of its chains'
    /// ancestor counts for the outcome (`ancestors`), at least `fewest_ancestors` for
    /// a chain not built yet. So the chains left are not built for the hints, nor the
    /// hints sought.
    fn all_beaten(
        &mut self,
        g: &SeGrid,
        ar: &Arena,
        shared: &Reached,
        starts: &[u16],
        sort_key: u8,
    ) -> bool {
        // Asked for the first hint alone, one that loses to the best so far loses.
        let best = self.best.map(|b| (b.1, b.2));
        if self.chain_rule.level > 0 || (self.scratch.best.is_empty() && best.is_none()) {
            return false;
        }
        for (on, side_sets) in [(true, &shared.on), (false, &shared.off)] {
            for (i, &cells) in side_sets.iter().enumerate() {
                'outcome: for c in bits(cells) {
                    let k = key(c, i as u8 + 1, on);
                    let Some(slot) = Outcome::Of(k).slot(g).filter(|_| removes(g, k)) else {
                        continue;
                    };
                    let kept = self.scratch.best.get(slot).filter(|b| b.0 != NONE);
                    let Some((complexity, kind)) =
                        kept.map(|b| (b.1, b.2)).into_iter().chain(best).min()
                    else {
                        return false;
                    };
                    let mut least = 0;
                    for &s in starts {
                        let built = kon(s).then(|| self.scratch.memo.get(s)).flatten();
                        least += match built.map(|ch| side(ch, on).get(k)) {
                            Some(Some(t)) => self.ancestors(ar, t),
                            // Built without it: not an outcome of them all.
                            Some(None) => continue 'outcome,
                            None => fewest_ancestors(g, s, k),
                        };
                    }
                    if (least, sort_key) < (complexity, kind) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether only the run's first hint in SE's order matters, and the shortcuts that
    /// follow are taken (`best`).
    pub(super) fn first_only(&self) -> bool {
        self.context.first && self.shortcuts
    }

    /// Notes `h`, just found, as the run's best hint if it is, when only the first is
    /// wanted (`best`).
    pub(super) fn note(&mut self, h: &Hint) {
        let better = self.best.map_or(true, |b| rank_order(rank(h), b).is_lt());
        if self.first_only() && better {
            self.best = Some(rank(h));
        }
    }
}

/// All hints of one SE chaining rule, in SE's order (difficulty, complexity, kind), each
/// set of eliminations once; the first alone from a top-level nested run asked for it
/// (`Context::first`).
pub(crate) fn chaining_hints(g: &SeGrid, chain_rule: ChainRule, context: Context) -> Vec<Hint> {
    rule_hints(g, chain_rule, context, true)
}

/// `chaining_hints`, with or without `Chainer::shortcuts` (without only to test them).
pub(super) fn rule_hints(
    g: &SeGrid,
    chain_rule: ChainRule,
    context: Context,
    shortcuts: bool,
) -> Vec<Hint> {
    rule_run(g, chain_rule, context, shortcuts).0
}

/// `rule_hints`, and whether the loops rule searched from any candidate (`Chainer::searched`).
pub(super) fn rule_run(
    g: &SeGrid,
    chain_rule: ChainRule,
    context: Context,
    shortcuts: bool,
) -> (Vec<Hint>, bool) {
    let mut ch = Chainer::new(chain_rule, context);
    ch.shortcuts = shortcuts;
    let mut out = Vec::new();
    if chain_rule.mult || chain_rule.dynamic {
        ch.multiple(g, &mut out);
    } else {
        ch.loops_rule(g, &mut out);
    }
    out.retain(|h| h.pending != DROPPED);
    best_per_removals(&mut out);
    ch.finish(g, &mut out);
    (out, ch.searched)
}

/// A hint's place in SE's order of a rule's hints: difficulty, complexity, kind.
pub(super) type Rank = (f64, u32, u8);

fn rank(h: &Hint) -> Rank {
    (h.diff, h.complexity, h.sort_key)
}

/// SE's order of ranks (stable sorts then keep hints as found).
pub(super) fn rank_order(a: Rank, b: Rank) -> std::cmp::Ordering {
    (a.0.total_cmp(&b.0))
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
}

/// SE's order of a rule's hints: difficulty, complexity, kind (stable: then as found).
pub(super) fn se_order(a: &Hint, b: &Hint) -> std::cmp::Ordering {
    rank_order(rank(a), rank(b))
}

/// SE's order of a rule's hints with repeats dropped: sorted (stably) by difficulty,
/// complexity and kind, each set of eliminations kept at its first hint. Found as the
/// least hint of each set, then only those sorted: most hints of a multiple-chain run
/// repeat another's eliminations.
fn best_per_removals(out: &mut Vec<Hint>) {
    let mut best: FxHashMap<[u64; 12], usize> = FxHashMap::default();
    for (i, h) in out.iter().enumerate() {
        // The set of eliminations as a 729-bit key: removals lists hold no repeats.
        let mut k = [0u64; 12];
        for &(c, d) in &h.removals {
            let bit = c as usize * 9 + d as usize - 1;
            k[bit / 64] |= 1 << (bit % 64);
        }
        // Ties go to the earlier hint, as in a stable sort.
        best.entry(k)
            .and_modify(|b| {
                if se_order(h, &out[*b]).is_lt() {
                    *b = i;
                }
            })
            .or_insert(i);
    }
    let mut keep = vec![false; out.len()];
    for &i in best.values() {
        keep[i] = true;
    }
    let mut i = 0;
    out.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    out.sort_by(se_order);
}

#[cfg(test)]
mod tests {
    use super::super::ahead::holds;
    use super::super::se_rate;
    use super::super::tests::{reduced_pairs, HARD};
    use super::super::NestedCache;
    use super::super::MAX_LEVEL;
    use super::*;
    use crate::grid::Grid;

    /// Keeping the least hint of each set of eliminations, then sorting those, leaves the
    /// hints a stable sort and a first-of-each-set filter leave, in the same order: ties
    /// of difficulty, complexity and kind included.
    #[test]
    fn best_per_removals_is_a_stable_sort_then_first_of_each_set() {
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut hints = Vec::new();
        for i in 0..2000u32 {
            let mut h = Hint::new(
                SeTechnique::DoubleForcingChains(1),
                rating::DYNAMIC_CHAINS_PLUS,
            );
            h.complexity = next(6) as u32;
            h.diff = rating::DYNAMIC_CHAINS_PLUS + length_diff(h.complexity);
            h.sort_key = next(3) as u8;
            // Few distinct sets, listed in any order: most hints repeat another's.
            let (c, d) = (next(4) as u8, 1 + next(2) as u8);
            h.removals = vec![(c, d), (c + 40, d)];
            if next(2) == 0 {
                h.removals.reverse();
            }
            h.parents = vec![(i as u8, (i >> 8) as u8)];
            hints.push(h);
        }
        let mut plain = hints.clone();
        plain.sort_by(|a, b| {
            (a.diff.total_cmp(&b.diff))
                .then(a.complexity.cmp(&b.complexity))
                .then(a.sort_key.cmp(&b.sort_key))
        });
        let mut seen = std::collections::HashSet::new();
        plain.retain(|h| {
            let mut set = h.removals.clone();
            set.sort_unstable();
            seen.insert(set)
        });
        best_per_removals(&mut hints);
        let ids = |hs: &[Hint]| hs.iter().map(|h| h.parents.clone()).collect::<Vec<_>>();
        assert_eq!(plain.len(), 8);
        assert_eq!(ids(&plain), ids(&hints));
    }

    /// `Chainer::past_room` rests on this: in a level-4 chain, whatever is added after the
    /// nested rule's removals (the simple rules having found nothing) descends from one of
    /// them. Checked on every chain, built to its end, of two level-4 steps of two puzzles
    /// (ER 11.3 and 11.8).
    #[test]
    fn what_follows_nested_removals_descends_from_them() {
        let (mut steps, mut checked) = (0, 0);
        for text in [
            HARD[2],
            "1.......2..94...5..6....7.....89..4....3.6.....8.4.....2....1..7.......6..5.8..3.",
        ] {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let rating = se_rate(&puzzle, Some(&solution), MAX_LEVEL, false);
            let cache = NestedCache::default();
            let mut g = SeGrid::from_values(puzzle.values());
            let mut here = 0;
            for h in &rating.steps {
                let at_level_4 = matches!(
                    h.tech,
                    SeTechnique::ContradictionForcingChains(5)
                        | SeTechnique::DoubleForcingChains(5)
                        | SeTechnique::CellForcingChains(5)
                        | SeTechnique::RegionForcingChains(5)
                );
                if at_level_4 && here < 2 {
                    (here, steps) = (here + 1, steps + 1);
                    cache.start_step(&g);
                    let context = Context {
                        src: None,
                        first: true,
                        explain: false,
                        solution: None,
                        nested: &cache,
                    };
                    let mut ch = Chainer::new(ChainRule::dynamic(4), context);
                    for c in (0..81).filter(|&c| g.card(c) >= 2) {
                        for k in
                            digits(g.cand()[c]).flat_map(|d| [key(c, d, true), key(c, d, false)])
                        {
                            let (mut gm, mut ar) = (g.clone(), Arena::default());
                            ch.chain_from(&g, &mut gm, &mut ar, k, None);
                            checked += descend_from_nested_removals(&ar);
                        }
                    }
                }
                let before = g.clone();
                h.apply(&mut g);
                cache.step_done(&before, &g);
            }
        }
        assert_eq!(steps, 4);
        assert!(checked > 10_000, "too few potentials checked: {checked}");
    }

    /// Checks that every potential added after a run of potentials switched off by nested
    /// rules descends from one of that run; returns how many it checked.
    fn descend_from_nested_removals(ar: &Arena) -> usize {
        let mut checked = 0;
        let n = ar.pots.len() as u32;
        let nested =
            |p: u32| ar.pots[p as usize].cause == C_ADV && ar.pots[p as usize].nested.is_some();
        let mut p = 0;
        while p < n {
            if !nested(p) {
                p += 1;
                continue;
            }
            let start = p;
            while p < n && nested(p) {
                p += 1;
            }
            for q in p..n {
                let mut queue = Vec::new();
                let mut found = false;
                ar.chain_while(q, &mut queue, |a| {
                    found |= (start..p).contains(&a);
                    !found
                });
                assert!(found, "potential {q} does not descend from {start}..{p}");
                checked += 1;
            }
        }
        checked
    }

    /// A top-level run that knows the solution stops the chains from assumptions the
    /// solution agrees with once they reach what they could share: every hint is the same,
    /// in the same order, as when they run to their end.
    #[test]
    fn chains_that_cannot_fail_stop_early_and_find_the_same_hints() {
        let mut hints = 0;
        for (i, text) in HARD.iter().enumerate() {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let sol = solution.values();
            let pairs = reduced_pairs(2);
            for g in [
                SeGrid::from_values(puzzle.values()),
                pairs[2 * i + 1].1.clone(),
            ] {
                assert!(holds(&g, sol));
                for level in 1..=3 {
                    let key = |h: &Hint| {
                        (
                            h.tech,
                            h.complexity,
                            h.sort_key,
                            h.removals.clone(),
                            h.place,
                        )
                    };
                    let run = |solution| {
                        let nested = NestedCache::default();
                        // Every hint, not the first alone: all of them are compared.
                        let context = Context {
                            src: None,
                            first: false,
                            explain: false,
                            solution,
                            nested: &nested,
                        };
                        chaining_hints(&g, ChainRule::dynamic(level), context)
                            .iter()
                            .map(key)
                            .collect::<Vec<_>>()
                    };
                    let whole = run(None);
                    assert_eq!(whole, run(Some(sol)), "level {level}");
                    hints += whole.len();
                }
            }
        }
        assert!(hints > 100, "too few hints compared: {hints}");
    }
}
