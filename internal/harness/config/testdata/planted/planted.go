// Package planted is TestTheWalkFindsPlantedReads' fixture: each way of
// reading the environment the walk must find, on a line the test names.
package planted

import (
	goos "os"
	"syscall"
)

var a = goos.Getenv("PLANTED")

func b() { _, _ = goos.LookupEnv("PLANTED") }

var c = goos.ExpandEnv("$PLANTED")

var d, _ = syscall.Getenv("PLANTED")

var e = goos.Getenv // handed on, to read with

var passedThrough = goos.Environ() // a child's environment: not a read
