package endpoints

import (
	"testing"

	"github.com/peakload/workshop/internal/given/routes"
)

// TestItemsPrefixIsTheItemsRoutes: ItemsPrefix is a constant only because
// the frameworks need one; routes.Items stays the one declaration.
func TestItemsPrefixIsTheItemsRoutes(t *testing.T) {
	if ItemsPrefix != routes.Prefix(routes.Items) {
		t.Errorf("ItemsPrefix %q, routes.Prefix(routes.Items) %q", ItemsPrefix, routes.Prefix(routes.Items))
	}
}
