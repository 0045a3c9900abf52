# qemu/debug-session.gdb - the worked session of docs/debugging.md, runnable:
#
#   make debug INIT=target/user/sig_demo &        (QEMU waits for gdb)
#   gdb-multiarch -batch -x qemu/gdbinit -x qemu/debug-session.gdb
#
# It follows sig_demo's SIGUSR1 into delivery, looks at the sigqueue node, at
# the frame the handler sees in user memory, and at rt_sigreturn.

sigil-user sig_demo

# 1. Delivery starts: the child is on its way back to user mode with SIGUSR1.
break sigil::signal::deliver::handle_signal
continue
backtrace
print dq
print *dq.0
set $node = dq.0
sigil-node $node
print/x tf.gpr[1]
print/x tf.nip

# 2. The handler's first instruction: r3 = signo, r4 = &siginfo, r5 = &ucontext,
#    r1 = the new stack pointer (back chain), lr = the trampoline in the frame.
# (on_usr1 is C: gdb's Rust mode cannot name it, so switch language first.)
set language c
break *on_usr1
continue
info registers r1 r3 r4 r5 r6 lr
x/1wx $r1
sigil-rtframe $r4
backtrace

# 3. The handler returned to the trampoline, which made the rt_sigreturn call.
#    (Then let the program finish: no breakpoints, gdb lets go.)
set language auto
break sigil::signal::deliver::restore_frame
continue
print/x tf.gpr[1]
print/x tf.gpr[1] + 80
print/x tf.nip
delete
detach
