// Its own module so the workshop's ./... skips these answers: each file is a
// replacement of a step's exercise.go, not code to build here.
module github.com/peakload/workshop/redteam2

go 1.25
