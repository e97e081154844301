package routes

import "testing"

func TestPathAndPrefix(t *testing.T) {
	if got := Path(Cached, 7); got != "/cached/items/7" {
		t.Errorf("Path(Cached, 7) = %q", got)
	}
	if got := Path(Change, 3); got != "/items/3/change" {
		t.Errorf("Path(Change, 3) = %q", got)
	}
	if got := Prefix(Items) + "42"; got != Path(Items, 42) {
		t.Errorf("Prefix(Items)+id = %q, Path %q", got, Path(Items, 42))
	}
	if GET(Burst) != "GET /burst/items/:id" {
		t.Errorf("GET(Burst) = %q", GET(Burst))
	}
}
