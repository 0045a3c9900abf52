//! What every 32-bit PowerPC family shares: the trap frame and the words for
//! exceptions (frame.rs), kernel stacks and the context switch (context.rs),
//! their assembly half (entry.S, vector.h), and the common CPU instructions
//! (cpu.rs: PVR, timebase, decrementer, idle).

pub mod context;
pub mod cpu;
pub mod frame;
