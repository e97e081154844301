// Package houserules holds, in its tests, the rules the tree's layout
// keeps: internal/ is three houses (given, harness, dev) whose imports
// point one way, and a function fits on a screen.
package houserules
