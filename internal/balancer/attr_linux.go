package balancer

import "syscall"

// childAttr: HAProxy in its own process group (Ctrl-C goes to the
// workshop, which stops it), and SIGTERMed by the kernel if the workshop
// dies first, like the step servers.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
