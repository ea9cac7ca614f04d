//! Chains built ahead on all threads, at the top of a run of nested chains (from ER 9.0
//! up). There every chaining the run asks for (each candidate switched on, and off) costs
//! up to thousands of nested rule runs, and none depends on another: they are built on
//! the rayon pool before the run reads them in SE's order (`Chainer::prebuild`), and the
//! run's thousands of hint complexities are found on the pool after it
//! (`Chainer::deferred_complexities`).
//!
//! Half of the chainings start from an assumption the solution agrees with. Every rule
//! being sound, those never meet a contradiction: they only serve the hints they share
//! with the others, so they are built last and stop at what those reached
//! (`shared_with_false`); from level 4 up, at what a first hint could rest on. At level 4
//! a chain also stops where all it could still add would give its hints more complexity
//! than the least contradiction met so far (`Room`).

use super::chains::ChainRule;
use super::chains::{
    complexity, complexity_within, length_diff, removes, se_order, spread_complexity, Chainer,
};
use super::potentials::{kcell, kdig, key, kon, Arena, NKEYS};
use super::sieve::{Reached, Targets};
use super::{bits, digits, Hint, SeGrid, CR, RC};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;

/// Whether grid `g` still allows the solution `sol`.
pub(super) fn holds(g: &SeGrid, sol: &[u8; 81]) -> bool {
    (0..81).all(|c| g.val()[c] == sol[c] || (g.val()[c] == 0 && g.has(c, sol[c])))
}

/// A chaining built in an arena of its own, from the potential at index 0: what it
/// switched on and off, and the contradiction it met, as indices into `arena`.
pub(super) struct Built {
    pub(super) arena: Arena,
    pub(super) on: Vec<u32>,
    pub(super) off: Vec<u32>,
    pub(super) absurd: Option<(u32, u32)>,
    /// The same as sets, for the targets of chains that cannot fail (`shared_with_false`).
    pub(super) reached: Reached,
    /// The potentials switched on and off by key, with their indices, where a chaining
    /// from a true assumption looks for its part in hints (`index`).
    pub(super) by_key: Vec<(u16, u32)>,
}

impl Built {
    /// Lists the potentials by key (`find`).
    fn index(&mut self) {
        let keys = self
            .on
            .iter()
            .chain(&self.off)
            .map(|&i| (self.arena.key(i), i));
        self.by_key = keys.collect();
        self.by_key.sort_unstable();
    }

    /// The index of the potential with key `k`, if the chaining reached it (`index`).
    fn find(&self, k: u16) -> Option<u32> {
        let at = self.by_key.binary_search_by_key(&k, |&(key, _)| key).ok()?;
        Some(self.by_key[at].1)
    }
}

/// How much complexity a chain's own part in a hint may have for the hint to be its
/// run's first (`Chainer::room`, `Chainer::past_room`).
#[derive(Clone)]
pub(super) enum Room {
    /// Any: the chain runs to its end, or to its targets.
    Any,
    /// At most this much.
    Upto(u32),
    /// Less than the least contradiction met so far by the chains built alongside (the
    /// hint has another target, worth one at least).
    Least(Arc<AtomicU32>),
}

impl Room {
    pub(super) fn get(&self) -> u32 {
        match self {
            Room::Any => u32::MAX,
            Room::Upto(room) => *room,
            Room::Least(least) => least.load(Relaxed).saturating_sub(1),
        }
    }
}

/// What the chaining from `k`, an assumption the solution agrees with, must reach: what
/// it can share with the (`built`) chainings it combines with in `multiple`, all from
/// false assumptions, as far as it holds in the solution (`truth`: per digit, its
/// cells), and as far as a hint resting on it may have no more complexity than `limit`:
/// its part in those chainings alone must leave room for one more. With what the least
/// of those parts leaves for the chaining's own part (the two share no nested hint: the
/// true chaining's grids keep the solution, the false ones' do not).
fn shared_with_false(
    built: &[Option<Built>],
    chain_rule: ChainRule,
    g: &SeGrid,
    truth: &[u128; 9],
    k: u16,
    limit: u32,
    queue: &mut Vec<u32>,
) -> (Targets, u32) {
    let (c, d) = (kcell(k), kdig(k));
    let card = g.card(c);
    let mut need = Reached::default();
    let mut least = u32::MAX;
    let mut share = |keys: &mut dyn Iterator<Item = u16>| {
        let Some(chains) = keys
            .map(|k| built[k as usize].as_ref())
            .collect::<Option<Vec<&Built>>>()
        else {
            return;
        };
        let Some(common) = chains.iter().map(|b| b.reached).reduce(|a, b| a.and(&b)) else {
            return;
        };
        // What the solution refutes, the chaining never reaches.
        let common = Reached {
            on: std::array::from_fn(|i| common.on[i] & truth[i]),
            off: std::array::from_fn(|i| common.off[i] & !truth[i]),
        };
        if limit == u32::MAX {
            need.add(&common);
            return;
        }
        for (on, sets, needs) in [
            (true, &common.on, &mut need.on),
            (false, &common.off, &mut need.off),
        ] {
            for (i, (&set, needed)) in sets.iter().zip(needs.iter_mut()).enumerate() {
                for c in bits(set) {
                    let o = key(c, i as u8 + 1, on);
                    let targets = chains.iter().filter_map(|b| Some((&b.arena, b.find(o)?)));
                    if let Some(part) = spread_complexity(targets, queue, limit - 1) {
                        *needed |= 1 << c;
                        least = least.min(part);
                    }
                }
            }
        }
    };
    // The same candidate's other state (`binary`).
    if chain_rule.doubles(card) {
        share(&mut std::iter::once(k ^ 1));
    }
    if kon(k) {
        // The cell's other candidates, the digit's other places in each of its houses.
        if chain_rule.shares(card) {
            share(
                &mut digits(g.cand()[c])
                    .filter(|&e| e != d)
                    .map(|e| key(c, e, true)),
            );
        }
        for r in CR[c] {
            let pp = g.pos(r as usize, d);
            if chain_rule.shares(pp.count_ones()) {
                let others = bits(pp).map(|i| RC[r as usize][i] as usize);
                share(&mut others.filter(|&o| o != c).map(|o| key(o, d, true)));
            }
        }
    }
    (Targets::new(need), limit.saturating_sub(least))
}

impl Chainer<'_> {
    /// Finds the complexities `hint` deferred, on all threads, for the hints of `out`
    /// (one each, in order). When only the first hint is wanted (`Context::first`), `out`
    /// keeps that one alone.
    pub(super) fn deferred_complexities(&mut self, ar: &Arena, out: &mut Vec<Hint>) {
        use rayon::prelude::*;
        if self.scratch.deferred.is_empty() {
            return;
        }
        debug_assert_eq!(self.scratch.deferred.len(), out.len());
        // The hints of a run share their base, so SE's order (difficulty, complexity,
        // kind, then as found) puts the least complexity first, whatever its kind: a
        // count may stop once it passes the least one found so far, on any thread.
        let first = self.context.first
            && self
                .scratch
                .deferred
                .iter()
                .all(|d| d.2 == self.scratch.deferred[0].2);
        let least = AtomicU32::new(u32::MAX);
        let targets = &self.scratch.hint_targets;
        let complexity: Vec<Option<u32>> = (self.scratch.deferred.par_iter())
            .map_init(Vec::new, |queue, &(a, b, _)| {
                let targets = &targets[a as usize..b as usize];
                if !first {
                    return Some(complexity(ar, targets, queue));
                }
                let c = complexity_within(ar, targets, queue, least.load(Relaxed))?;
                least.fetch_min(c, Relaxed);
                Some(c)
            })
            .collect();
        for ((h, c), &(_, _, base)) in out.iter_mut().zip(&complexity).zip(&self.scratch.deferred) {
            if let Some(c) = *c {
                h.complexity = c;
                h.diff = base + length_diff(c);
            }
        }
        if first {
            // The first in SE's order of those counted to the end (ties to the earlier).
            let best = (0..out.len())
                .filter(|&i| complexity[i].is_some())
                .min_by(|&a, &b| se_order(&out[a], &out[b]));
            if let Some(i) = best {
                out.swap(0, i);
                out.truncate(1);
            }
        }
        self.scratch.deferred.clear();
        self.scratch.hint_targets.clear();
    }

    /// Builds every chaining a top-level run of nested chains will ask for (each
    /// candidate switched on, and off) on all threads of the pool, ahead of the run:
    /// there, each costs up to thousands of nested rule runs, and none depends on another.
    pub(super) fn prebuild(&mut self, g: &SeGrid) {
        let starts: Vec<u16> = (0..81)
            .filter(|&c| g.val()[c] == 0 && g.card(c) >= 2)
            .flat_map(|c| {
                digits(g.cand()[c]).flat_map(move |d| [key(c, d, true), key(c, d, false)])
            })
            .collect();
        self.built.clear();
        self.built.resize_with(NKEYS, || None);
        // A chain from an assumption the solution agrees with derives only what holds in
        // the solution (every rule is sound), so it never meets a contradiction: it serves
        // only the hints it shares with chains from false assumptions, and may stop once
        // it has reached what they reached. So those are built first.
        let Some(sol) = self.context.solution.filter(|s| holds(g, s)) else {
            let starts = starts.into_iter().map(|k| (k, None, Room::Any)).collect();
            self.build_ahead(g, starts, None);
            return;
        };
        let mut truth = [0u128; 9];
        for (c, &v) in sol.iter().enumerate() {
            truth[v as usize - 1] |= 1 << c;
        }
        let agrees = |k: u16| (truth[kdig(k) as usize - 1] >> kcell(k) & 1 != 0) == kon(k);
        let (sure, rest): (Vec<u16>, Vec<u16>) = starts.into_iter().partition(|&k| agrees(k));
        // Only the first hint wanted, a hint with more complexity than a contradiction met
        // by a chain already built loses to it: the chains from true assumptions need not
        // reach what only such hints would rest on. That pays from level 4 up, where those
        // chains run nested dynamic chains; below, counting what they may skip costs more
        // than building it (3% more instructions on puzzles rated 10.5–11.1). At level 4,
        // a chain also stops where all it could still reach would pass that: the least
        // contradiction met so far for chains from false assumptions, what their part
        // leaves for the others (`Chainer::past_room`).
        let cut = self.context.first && self.chain_rule.level >= 4;
        let least = Arc::new(AtomicU32::new(u32::MAX));
        let room = match cut && self.chain_rule.level == 4 {
            true => Room::Least(least.clone()),
            false => Room::Any,
        };
        let false_starts = rest.iter().map(|&k| (k, None, room.clone())).collect();
        self.build_ahead(g, false_starts, cut.then_some(&*least));
        let limit = least.load(Relaxed);
        use rayon::prelude::*;
        if limit < u32::MAX {
            self.built.par_iter_mut().flatten().for_each(Built::index);
        }
        let (built, chain_rule) = (&self.built, self.chain_rule);
        let sure = sure
            .into_par_iter()
            .map_init(Vec::new, |queue, k| {
                let (need, room) = shared_with_false(built, chain_rule, g, &truth, k, limit, queue);
                let room = match chain_rule.level == 4 && limit < u32::MAX {
                    true => Room::Upto(room),
                    false => Room::Any,
                };
                (k, Some(need), room)
            })
            .collect();
        self.build_ahead(g, sure, None);
    }

    /// Builds the chainings from `starts` (each with the outcomes it may stop after, or to
    /// its end, and its room) on the pool, into `built`; `least` gets the least complexity
    /// of the contradictions they meet, each a hint of the run (`Chainer::binary`).
    pub(super) fn build_ahead(
        &mut self,
        g: &SeGrid,
        starts: Vec<(u16, Option<Targets>, Room)>,
        least: Option<&AtomicU32>,
    ) {
        use rayon::prelude::*;
        let (chain_rule, context) = (self.chain_rule, self.context);
        // One chaining per job: their costs vary a hundredfold, and larger jobs leave one
        // thread idle at the end of the run while the other finishes a long one.
        let built: Vec<Built> = starts
            .par_iter()
            .with_max_len(1)
            .map_init(
                || (Chainer::new(chain_rule, context), g.clone()),
                |(ch, gm), (k, targets, room)| {
                    // Built in this thread's reused arena and kept in one of its exact
                    // size: grown from nothing, arenas of thousands of potentials are
                    // copied over and over.
                    let mut arena = ch.take_arena();
                    ch.room = room.clone();
                    let mut targets = targets.clone();
                    let (on, off, absurd) = ch.chain_from(g, gm, &mut arena, *k, targets.as_mut());
                    if let (Some(least), Some((x, y))) = (least, absurd) {
                        if kon(*k) || removes(g, *k | 1) {
                            let queue = &mut ch.scratch.queue;
                            least.fetch_min(complexity(&arena, &[x, y], queue), Relaxed);
                        }
                    }
                    let keys = on.order.iter().chain(&off.order).map(|&i| arena.key(i));
                    let b = Built {
                        reached: Reached::of(keys),
                        by_key: Vec::new(),
                        arena: arena.clone(),
                        on: on.order.clone(),
                        off: off.order.clone(),
                        absurd,
                    };
                    ch.recycle(on);
                    ch.recycle(off);
                    ch.arena = arena;
                    b
                },
            )
            .collect();
        for ((k, _, _), b) in starts.into_iter().zip(built) {
            self.built[k as usize] = Some(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::reduced_pairs;
    use super::*;
    use crate::grid::Grid;

    /// A grid allows the solution while every cell holds its solution digit or still has it
    /// as a candidate: losing one such candidate is enough to lose it.
    #[test]
    fn holds_while_every_solution_candidate_stays() {
        for (_, g) in reduced_pairs(3) {
            let givens = Grid::from_values(*g.val()).expect("valid givens");
            let solution = *crate::solver::solve(&givens).expect("a solution").values();
            assert!(holds(&g, &solution));
            for c in (0..81).filter(|&c| g.val()[c] == 0) {
                let mut cand = *g.cand();
                cand[c] &= !(1 << (solution[c] - 1));
                assert!(!holds(&SeGrid::from_parts(g.val(), &cand), &solution));
                let other = digits(g.cand()[c]).find(|&d| d != solution[c]);
                if let Some(d) = other {
                    let mut cand = *g.cand();
                    cand[c] &= !(1 << (d - 1));
                    assert!(holds(&SeGrid::from_parts(g.val(), &cand), &solution));
                }
            }
        }
    }
}
