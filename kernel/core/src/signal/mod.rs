//! Linux signals, the portable half: sets, actions, siginfo, the sigqueue, the
//! ppc32 frames and the sigaltstack rules. No user memory is touched here; the
//! kernel crate reads and writes user memory through its windows and calls
//! these pure pieces to decide what to read and write.
//!
//! Follow one signal (the path docs/signals.md walks through):
//! 1. [`info`]: the sender builds a `SigInfo` (kill, tkill, sigqueue, fault).
//! 2. [`action`]: the target's disposition and `default_action` say whether
//!    it is ignored; the kernel's `send` then drops it at once.
//! 3. [`queue`]: `SigPending::enqueue` links a node; standard signals coalesce.
//! 4. [`queue`]: on the way to user mode `dequeue` hands back the node itself.
//! 5. [`frame`]: `place_frame` says where the frame goes and how the handler
//!    starts; [`action::handler_mask`] says what it blocks; the kernel writes
//!    the frame in one window, drops the node, and runs the handler.
//! 6. [`frame`]: sigreturn reads the frame back; `sanitize_user_msr` and
//!    [`altstack`] decide what may be restored; `syscall_restart` says what
//!    an interrupted call returns, and [`restart`] what it leaves behind for
//!    `restart_syscall`.

pub mod action;
pub mod altstack;
pub mod frame;
pub mod info;
pub mod queue;
pub mod restart;
pub mod signalfd;
pub mod sigset;

#[cfg(test)]
mod cross_check;

pub use action::{
    default_action, handler_mask, init_drops_default, DefaultAction, Disposition, SigAction,
};
pub use altstack::{AltStack, StackT};
pub use info::SigInfo;
pub use queue::{Enqueued, SigPending, SigQueueNode};
pub use sigset::{SigSet, Signal};
