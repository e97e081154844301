// Step 8 — profiling. POST /v1/login is the login service as it shipped
// (internal/given/accounts): correct, tested, and it serves about one CPU's worth
// of logins however many CPUs the server gets. POST /v2/login is your copy
// of it (exercise.go). In the Node.js guide that article C summarises, the
// server was slow because a synchronous pbkdf2 blocked its event loop, and
// the profiler, not reading code, showed it. Do the same:
//
//	make step-8 profile    a CPU and a lock-contention profile of /v2/login
//
// then fix exercise.go and measure: make step-8 bench.
package main

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/given/accounts"
	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/given/routes"
	"github.com/peakload/workshop/internal/given/server"
)

func main() {
	p := params.Load()
	users := accounts.Demo(p.Login.Users, accounts.PBKDF2(p.Login.Iterations))
	newServer(users, p.Login.MaxFailures).Main()
}

// loginService is what both versions do.
type loginService interface {
	Login(email, password string) error
}

func newServer(users *accounts.Directory, maxFailures int) *server.Server {
	tokens := accounts.NewTokens()
	srv := server.New("step 8 — profiling")
	srv.POST(routes.LoginV1, login(accounts.NewGuard(users, maxFailures), tokens))
	srv.POST(routes.LoginV2, login(NewGuard(users, maxFailures), tokens))
	return srv
}

// login reads the credentials, asks the service, and answers a session
// token: 400 for a bad body, 401 for a wrong password, 429 once locked.
func login(svc loginService, tokens *accounts.Tokens) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err // 413 past the server's body limit
		}
		cred, err := accounts.DecodeCredentials(body)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		switch err := svc.Login(cred.Email, cred.Password); {
		case errors.Is(err, accounts.ErrWrongPassword):
			return echo.NewHTTPError(http.StatusUnauthorized, err.Error())
		case errors.Is(err, accounts.ErrLockedOut):
			return echo.NewHTTPError(http.StatusTooManyRequests, err.Error())
		case err != nil:
			return err
		}
		return c.JSON(http.StatusOK, map[string]any{"token": tokens.Issue(cred.Email, time.Hour), "expires_in": 3600})
	}
}
