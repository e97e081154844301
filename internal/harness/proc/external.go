package proc

import "errors"

// External is a server someone else runs and stops — the Compose bench
// profile's app container, measured from the bench container at target
// (http://app:8080). The driver measures it like its own; Stop leaves it
// running, its memory is not read (its /proc is not this container's), and
// it cannot be signalled. Its CPU limit is Docker's quota, not a pin.
func External(target string) *Proc {
	return &Proc{Target: target, child: exitedChild()} // nothing of ours to wait for: Stop returns at once
}

// errExternal is what a signal to an External server returns.
var errExternal = errors.New("the server runs in another container: it cannot be signalled from here")
