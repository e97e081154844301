package main

import "github.com/peakload/workshop/k6"

func runDoctor() error  { return nil }
func runDeps() error    { return nil }
func catalogItems() int { return k6.Load().Catalog.Items }
