//! The two tables by id (`TABLE.threads` by TID, `TABLE.groups` by PID):
//! a map that owns the entries and beside it a direct slot per id residue,
//! as Linux finds a `struct pid` by hash rather than by a tree walk.
//!
//! `kill(pid)` and `tgkill(tgid, tid)`, the common ways one process or
//! thread signals another, look their target up on every call; in the map
//! that is a `BTreeMap` node's linear scan, about ten instructions a key.
//! The slot for `id % SLOTS` holds the entry with that id if it was free
//! when the entry came in, so the lookup is one load and one compare. Ids
//! are handed out in turn, so two live entries share a slot only if their
//! ids are `SLOTS` apart: then the later one is found through the map, as
//! all were before. The map stays the owner and the order (broadcasts,
//! /proc walk it by id); the slots are an index into it that `insert`,
//! `remove` and `retain` keep in step, so a slot never points at an entry
//! the map has let go.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use core::ops::Deref;
use core::ptr::NonNull;

use super::{Group, Thread};
use crate::kcell::KCell;

/// Slots of the index: more than the most threads (`MAX_THREADS`), and
/// four per process (`MAX_PROCS`), so that ids handed out in turn rarely
/// meet in one.
const SLOTS: usize = 4 * super::MAX_PROCS;
const _: () = assert!(SLOTS.is_power_of_two() && SLOTS > super::MAX_THREADS);

/// What a table owns each entry by: a pointer that keeps the entry in one
/// place while the map holds it.
pub(super) trait Owner: Deref {
    /// The id the entry is filed under.
    fn id(entry: &Self::Target) -> u32;
    /// Where the entry is, to be used while the map holds `self`.
    fn place(&mut self) -> NonNull<Self::Target>;
}

impl Owner for Box<Thread> {
    fn id(t: &Thread) -> u32 {
        t.tid
    }

    fn place(&mut self) -> NonNull<Thread> {
        NonNull::from(&mut **self)
    }
}

impl Owner for Rc<KCell<Group>> {
    fn id(g: &KCell<Group>) -> u32 {
        g.get().pid
    }

    fn place(&mut self) -> NonNull<KCell<Group>> {
        NonNull::from(&**self)
    }
}

type Slots<T> = [Option<NonNull<T>>; SLOTS];

pub(super) struct IdTable<P: Owner> {
    map: BTreeMap<u32, P>,
    /// Where entries the map holds are (see the module comment).
    slots: Slots<P::Target>,
}

fn slot(id: u32) -> usize {
    id as usize % SLOTS
}

impl<P: Owner> IdTable<P> {
    pub(super) const fn new() -> IdTable<P> {
        IdTable { map: BTreeMap::new(), slots: [None; SLOTS] }
    }

    /// Where entry `id` is: its slot, or the map when another took the slot.
    pub(super) fn get(&mut self, id: u32) -> Option<NonNull<P::Target>> {
        if let Some(p) = self.slots[slot(id)] {
            // SAFETY: a slot points at an entry the map holds (module comment).
            if P::id(unsafe { p.as_ref() }) == id {
                return Some(p);
            }
        }
        self.map.get_mut(&id).map(P::place)
    }

    pub(super) fn contains_key(&mut self, id: u32) -> bool {
        self.get(id).is_some()
    }

    pub(super) fn len(&self) -> usize {
        self.map.len()
    }

    /// Every entry, in id order.
    pub(super) fn values(&mut self) -> impl Iterator<Item = &mut P> {
        self.map.values_mut()
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.map.keys().copied()
    }

    /// Takes `entry` in under `id`, which the table does not hold.
    pub(super) fn insert(&mut self, id: u32, mut entry: P) {
        let s = &mut self.slots[slot(id)];
        if s.is_none() {
            *s = Some(entry.place());
        }
        self.map.insert(id, entry);
    }

    /// Lets entry `id` go: its slot first, while the map still holds it.
    pub(super) fn remove(&mut self, id: u32) -> Option<P> {
        unslot::<P>(&mut self.slots, id);
        self.map.remove(&id)
    }

    /// Keeps the entries for which `keep` is true.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(u32, &mut P) -> bool) {
        let slots = &mut self.slots;
        self.map.retain(|&id, p| {
            let kept = keep(id, p);
            if !kept {
                unslot::<P>(slots, id);
            }
            kept
        });
    }
}

/// Empties `id`'s slot if it holds that entry (the map still does).
fn unslot<P: Owner>(slots: &mut Slots<P::Target>, id: u32) {
    let s = &mut slots[slot(id)];
    // SAFETY: a slot points at an entry the map holds (module comment).
    if s.is_some_and(|p| P::id(unsafe { p.as_ref() }) == id) {
        *s = None;
    }
}
