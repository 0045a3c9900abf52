//! The process table by PID (`TABLE.groups`): the map that owns one
//! reference to each group, and beside it a direct slot per PID residue,
//! as Linux finds a `struct pid` by hash rather than by a tree walk.
//!
//! `kill(pid)`, the common way one process signals another, looks its
//! target up on every call; in the map that is a `BTreeMap` node's linear
//! scan, about ten instructions a key. The slot for `pid % SLOTS` holds
//! the group with that PID if it was free when the group came in, so the
//! lookup is one load and one compare. PIDs are handed out in turn, so two
//! live processes share a slot only if their PIDs are `SLOTS` apart: then
//! the later one is found through the map, as all were before. The map
//! stays the owner and the order (broadcasts, /proc walk it by PID); the
//! slots are an index into it that `insert` and `remove` keep in step, so
//! a slot never points at a group the map has let go.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use core::ptr::NonNull;

use super::Group;
use crate::kcell::KCell;

/// Slots of the index: four per process the table may hold
/// (`MAX_PROCS`), so that PIDs handed out in turn rarely meet in one.
const SLOTS: usize = 4 * super::MAX_PROCS;
const _: () = assert!(SLOTS.is_power_of_two());

pub(super) struct Groups {
    map: BTreeMap<u32, Rc<KCell<Group>>>,
    /// Pointers to groups the map holds (see the module comment).
    slots: [Option<NonNull<KCell<Group>>>; SLOTS],
}

fn slot(pid: u32) -> usize {
    pid as usize % SLOTS
}

/// A group the table holds, as the `&'static mut` this module hands out
/// (the invariants in `proc`: valid until the next context switch).
fn group(g: &KCell<Group>) -> &'static mut Group {
    // SAFETY: as `Thread::group`: the table holds a reference, and KCell is
    // the kernel's one-CPU cell.
    unsafe { &mut *(g.get() as *mut Group) }
}

impl Groups {
    pub(super) const fn new() -> Groups {
        Groups { map: BTreeMap::new(), slots: [None; SLOTS] }
    }

    /// The process `pid`: its slot, or the map when another took the slot.
    pub(super) fn get(&self, pid: u32) -> Option<&'static mut Group> {
        if let Some(p) = self.slots[slot(pid)] {
            // SAFETY: a slot points at a group the map holds (module comment).
            let g = group(unsafe { p.as_ref() });
            if g.pid == pid {
                return Some(g);
            }
        }
        self.map.get(&pid).map(|g| group(g))
    }

    pub(super) fn contains_key(&self, pid: u32) -> bool {
        self.get(pid).is_some()
    }

    pub(super) fn len(&self) -> usize {
        self.map.len()
    }

    /// Every process, in PID order.
    pub(super) fn values(&self) -> impl Iterator<Item = &'static mut Group> + '_ {
        self.map.values().map(|g| group(g))
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.map.keys().copied()
    }

    /// Takes `g` in as process `pid`, which the table does not hold.
    pub(super) fn insert(&mut self, pid: u32, g: Rc<KCell<Group>>) {
        let s = &mut self.slots[slot(pid)];
        if s.is_none() {
            *s = Some(NonNull::from(&*g));
        }
        self.map.insert(pid, g);
    }

    /// Lets process `pid` go: its slot first, while the map still holds it.
    pub(super) fn remove(&mut self, pid: u32) -> Option<Rc<KCell<Group>>> {
        unslot(&mut self.slots, pid);
        self.map.remove(&pid)
    }

    /// Keeps the processes for which `keep` is true.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(u32, &Group) -> bool) {
        let slots = &mut self.slots;
        self.map.retain(|&pid, g| {
            let kept = keep(pid, g.get());
            if !kept {
                unslot(slots, pid);
            }
            kept
        });
    }
}

/// Empties `pid`'s slot if it holds that process (the map still does).
fn unslot(slots: &mut [Option<NonNull<KCell<Group>>>; SLOTS], pid: u32) {
    let s = &mut slots[slot(pid)];
    // SAFETY: a slot points at a group the map holds (module comment).
    if s.is_some_and(|p| group(unsafe { p.as_ref() }).pid == pid) {
        *s = None;
    }
}
