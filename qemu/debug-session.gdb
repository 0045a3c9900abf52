# qemu/debug-session.gdb - the worked session of docs/debugging.md, runnable:
#
#   make debug INIT=target/user/sig_demo &        (QEMU waits for gdb)
#   gdb-multiarch -batch -x qemu/gdbinit -x qemu/debug-session.gdb
#
# It follows sig_demo's SIGUSR1 into delivery, looks at the sigqueue node, at
# the KUAP window the frame is written in, at the frame the handler sees in
# user memory, and at rt_sigreturn. Each step starts with an `echo @@step N`:
# `make docs` cuts gdb's output there into the transcripts of
# docs/debugging.md (qemu/src/docgen.rs).

# 1. Delivery starts: the child is on its way back to user mode with SIGUSR1.
echo @@step 1\n
sigil-user sig_demo
break sigil::signal::deliver::handle_signal
continue
backtrace

# 2. The siginfo handle_signal was given: a pointer into the sigqueue node
#    itself (its only field), and where the child was interrupted.
echo @@step 2\n
print info
print *info
sigil-node info
print/x tf.gpr[1]
print/x tf.nip

# 3. The frame is written inside one KUAP window: at handle_signal every
#    user segment is locked; where the window finishes, the segment of the
#    user stack (SR10) is open. (Then delete the breakpoints: the handler's
#    comes next.)
echo @@step 3\n
sigil-kuap
break sigil::uaccess::UserWindow<sigil::uaccess::Write>::finish<sigil::uaccess::Write>
continue
sigil-kuap
delete

# 4. The handler's first instruction: r3 = signo, r4 = &siginfo, r5 = &ucontext,
#    r1 = the new stack pointer (back chain), lr = the trampoline in the
#    signal page.
# (on_usr1 is C: gdb's Rust mode cannot name it, so switch language first.)
echo @@step 4\n
set language c
break *on_usr1
continue
info registers r1 r3 r4 r5 r6 lr
x/1wx $r1
sigil-rtframe $r4
backtrace

# 5. The handler returned to the trampoline, which made the rt_sigreturn call
#    (the handler's blr: one step from a return in the handler lands there):
#    its system call table entry, into which restore_frame is inlined.
#    (Then let the program finish: no breakpoints, gdb lets go.)
echo @@step 5\n
set language auto
break sigil::syscall::handlers::RtSigreturn::call
continue
print/x tf.gpr[1]
print/x tf.gpr[1] + 80
print/x tf.nip
delete
detach
