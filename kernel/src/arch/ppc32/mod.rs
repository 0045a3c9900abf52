//! What every 32-bit PowerPC family shares: the trap frame and the words for
//! exceptions (frame.rs), kernel stacks and the context switch (context.rs),
//! and their assembly half (entry.S).

pub mod context;
pub mod frame;
