# peakload — the learner's interface. `make help` lists every target.
#
#   make step-1 bench        measure step 1: before / after / the article's claim
#   make step-3 check        run step 3's check on your code (SOLUTION=1: on the reference)
#
# Variables: STACK=auto|native|compose  TOOL=go|wrk|k6  K6=path/to/k6  QUICK=1  ORIGINAL=1  VUS=200
#            ITERATIONS=100000  DURATION=10s  SOLUTION=1  RUNS=3  LATENCY=0.2ms
#            ARRIVAL=rate RATE=20000 (open loop)  CAPACITY=1 (capacity search)

SHELL       := /bin/bash
.DEFAULT_GOAL := help
WORKSHOP    := .workshop/bin/workshop
# The maintainer's tools (the mutant gate, docs, test-latency, test): built
# only by the targets that need them, so a learner's first bench does not.
WORKSHOP_DEV := .workshop/bin/workshop-dev
STEP_GOAL   := $(firstword $(filter step-%,$(MAKECMDGOALS)))
STEP        := $(patsubst step-%,%,$(STEP_GOAL))
ACTIONS     := run bench check watch reset diff hint profile drill mutants
ACTION      := $(filter $(ACTIONS),$(MAKECMDGOALS))
# compose-bench takes STEP as a directory name (02-cache-aside) or a number.
STEP_DIR    := $(if $(filter compose-bench,$(MAKECMDGOALS)),$(notdir $(firstword $(wildcard steps/$(STEP) steps/0$(STEP)-* steps/$(STEP)-*))))
export STACK TOOL QUICK ORIGINAL VUS ITERATIONS DURATION SOLUTION LATENCY RUNS ARRIVAL RATE CAPACITY
export FORMAT GRADE_BASE GRADE_STEPS URL REQUESTS METRICS PER_REQUEST ALLOW_REMOTE POST COLD CHANGE QUERIES BURST_POST BODY COLD_N SLOWLORIS BURST
export K6

# Each action needs a step: `make step-2 check`, not `make check`.
define need_step
	@if [ -z "$(STEP)" ]; then echo "$(NEED_STEP_$(BUILD_LANG))"; exit 2; fi
endef

.PHONY: help build build-dev doctor deps prefetch prefetch-frameworks prefetch-originals up down seed test test-latency test-originals test-busy agenda test-compose compose-bench probe audit grade compare progress report slides docs new-step clean $(ACTIONS)

# make help speaks the reader's language (BUILD_LANG, below) with no Go
# build: each target's English is its `## ` comment here, its Vietnamese a
# line of docs/vi/make-help.txt (target, a tab, the line), which awk reads
# first; TestEveryMakeTargetHasItsVietnameseLine holds the two together.
HELP_TITLE_en := peakload — rebuild four articles' optimisations and measure each one
HELP_TITLE_vi := peakload — dựng lại các tối ưu của bốn bài viết và đo từng cái
HELP_VARS_en := variables
HELP_VARS_vi := biến

help: ## list every target with one line each
	@echo "$(HELP_TITLE_$(BUILD_LANG))"
	@echo
	@awk -v lang=$(BUILD_LANG) -v vifile=$(dir $(firstword $(MAKEFILE_LIST)))docs/vi/make-help.txt 'BEGIN {FS = ":.*## "; if (lang == "vi") while ((getline line < vifile) > 0) if (line !~ /^#/ && (tab = index(line, "\t")) > 0) vi[substr(line, 1, tab - 1)] = substr(line, tab + 1)} \
		/^[a-zA-Z0-9_%-]+:.*## / {printf "  make %-16s %s\n", $$1, ($$1 in vi) ? vi[$$1] : $$2}' $(MAKEFILE_LIST)
	@echo
	@echo "  $(HELP_VARS_$(BUILD_LANG)): STACK=auto|native|compose TOOL=go|wrk|k6 K6=path QUICK=1 ORIGINAL=1 VUS=N ITERATIONS=N DURATION=10s SOLUTION=1 RUNS=N LATENCY=0.2ms ARRIVAL=rate RATE=N CAPACITY=1"

# The one line make prints before the CLI exists, in the reader's language as
# the CLI picks it (internal/given/messages.Parse: PEAKLOAD_LANG, then LANG).
BUILD_LANG := $(if $(PEAKLOAD_LANG),$(if $(filter vi% Vi% VI%,$(PEAKLOAD_LANG)),vi,en),$(if $(filter vi% Vi% VI%,$(LANG)),vi,en))
BUILD_MSG_en := compiling the workshop CLI into $(WORKSHOP) (the first time: about 400 packages, one to several minutes)…
BUILD_MSG_vi := đang compile CLI của workshop vào $(WORKSHOP) (lần đầu: khoảng 400 package, mất từ một đến vài phút)…
# A step action typed without its step, and compose-bench without STEP=
# ($@ is the action, expanded where the line is printed).
NEED_STEP_en = usage: make step-N $@   (e.g. make step-1 $@)
NEED_STEP_vi = cách dùng: make step-N $@   (ví dụ make step-1 $@)
NEED_BENCH_STEP_en := usage: make compose-bench STEP=2 [SOLUTION=1]   (a number, or a directory under steps/: 02-cache-aside)
NEED_BENCH_STEP_vi := cách dùng: make compose-bench STEP=2 [SOLUTION=1]   (một số, hoặc tên một thư mục trong steps/: 02-cache-aside)

build: ## build the workshop CLI (.workshop/bin/workshop)
	@test -x $(WORKSHOP) || echo "$(BUILD_MSG_$(BUILD_LANG))"
	@go build -o $(WORKSHOP) ./cmd/workshop

# build-dev: the learner's CLI and, beside it, the maintainer's (which runs it).
build-dev: build
	@go build -o $(WORKSHOP_DEV) ./cmd/workshop-dev

doctor: build ## what is installed / missing, and the exact command to fix each
	@$(WORKSHOP) doctor

deps: build ## install the missing Debian/Ubuntu packages (as root: apt-get)
	@$(WORKSHOP) deps

prefetch: build ## before a room with bad wifi: download modules (step 9's frameworks too), build every binary and test, seed, then stop
	go mod download
	@$(MAKE) --no-print-directory prefetch-frameworks
	@$(MAKE) --no-print-directory prefetch-originals
	go build ./... && go build -tags solution ./...
	go test -run '^$$' ./... >/dev/null && go test -tags solution -run '^$$' ./... >/dev/null
	go build -o /dev/null golang.org/x/tools/cmd/present
	@$(WORKSHOP) up && $(WORKSHOP) down
	@echo "prefetch: done — modules, build cache, the catalogue (and, with compose, the images) are local"

# ORIGINAL=1's stacks: the npm packages originals/package-lock.json pins
# (Fastify, Express, Koa, the drivers, Elysia and Bun). Without Node.js the
# Go rows still run: this says how to get it and goes on.
prefetch-originals: ## install the sources' own stacks (originals/, npm ci) for ORIGINAL=1
	@if command -v npm >/dev/null 2>&1; then cd originals && npm ci --no-audit --no-fund --loglevel=error; \
	else echo "prefetch: no npm here: the originals (ORIGINAL=1) need Node.js ≥ 18 and npm — make deps installs Debian's nodejs and npm"; fi

# Step 9's exercise go-gets a framework: put each one frameworks.txt lists, and
# all it needs, in the module cache. One at a time, each from its own scratch
# copy of go.mod (this checkout is not changed), as a learner adds just one: a
# framework alone can select other versions of shared modules (golang.org/x/sys,
# the MongoDB driver) than all of them together, and those must be local too.
prefetch-frameworks:
	@for fw in $$(grep -v '^#' steps/09-frameworks/frameworks.txt); do \
	  tmp=$$(mktemp -d) && cp go.mod go.sum $$tmp/ && \
	  (cd $$tmp && out=$$(GOFLAGS=-mod=mod go get $$fw 2>&1); rc=$$?; echo "$$out"; [ $$rc = 0 ] || exit $$rc; \
	   if echo "$$out" | grep -q '^go: upgraded'; then echo "prefetch: go get $$fw upgrades modules the workshop requires (above): frameworks.txt lists only versions that add"; exit 1; fi; \
	   go mod download all); \
	  rc=$$?; rm -rf $$tmp; [ $$rc = 0 ] || exit $$rc; \
	done

up: build ## start PostgreSQL, Redis and MongoDB for STACK, and seed the catalogue
	@$(WORKSHOP) up

down: build ## stop the services that `make up` (or a bench) started
	@$(WORKSHOP) down

seed: build ## create and load the catalogue (once; later runs reuse it)
	@$(WORKSHOP) seed

step-%: build ## step-N alone: the lesson's summary and its check; step-N ACTION: that action
	@$(if $(ACTION),true,$(WORKSHOP) step -step $*)

run: build ## (make step-N run) serve step N on 127.0.0.1:8080, pinned as the bench does; prints the k6/wrk command
	$(need_step)
	@$(WORKSHOP) run -step $(STEP)

bench: build ## (make step-N bench) run the scenario: before / after / the article's claim
	$(need_step)
	@$(WORKSHOP) bench -step $(STEP)

check: build ## (make step-N check) the step's check on your code; SOLUTION=1 on the reference
	$(need_step)
	@$(WORKSHOP) check -step $(STEP)

watch: build ## (make step-N watch) the check again on every save of the step's files; Ctrl-C stops
	$(need_step)
	@$(WORKSHOP) watch -step $(STEP)

reset: build ## (make step-N reset) restore the untouched exercise.go (yours kept in .workshop/backup/)
	$(need_step)
	@$(WORKSHOP) reset -step $(STEP)

diff: build ## (make step-N diff) what the reference solution adds over your code
	$(need_step)
	@$(WORKSHOP) diff -step $(STEP)

hint: build ## (make step-N hint) the hints seen so far, and the next one
	$(need_step)
	@$(WORKSHOP) hint -step $(STEP)

drill: build ## (make step-N drill) steps 2, 6, 7: kill a database (and the server) under load, count what survived
	$(need_step)
	@$(WORKSHOP) drill -step $(STEP)

profile: build ## (make step-N profile) load the step while capturing CPU and mutex profiles
	$(need_step)
	@$(WORKSHOP) profile -step $(STEP)

mutants: build-dev ## prove the checks: each fails on every mutant, passes on every valid one (make step-N mutants: one step)
	@$(WORKSHOP_DEV) mutants $(if $(STEP),-step $(STEP))

progress: build ## one line per step: solved?, hints seen, the last bench's verdicts; FORMAT=json|markdown for a lead or a CI summary
	@$(WORKSHOP) progress

grade: build ## CI on a learner's fork: the checks of the steps whose exercise.go changed, then the progress table into the job summary
	@$(WORKSHOP) grade

probe: build ## the bench on a service of yours: URL=http://127.0.0.1:8080/path [REQUESTS=file METRICS=url PER_REQUEST='re,re' RUNS=N CAPACITY=1]; loopback only unless ALLOW_REMOTE=1
	@$(WORKSHOP) probe

audit: build ## the articles' practices checked on a service from outside: URL=… [POST=/route METRICS=url QUERIES=name COLD=/path CHANGE='POST /path' COLD_N= SLOWLORIS= BURST= BURST_POST=1 BODY=]; HELP=1: what each sets
	@$(WORKSHOP) audit $(if $(filter 1,$(HELP)),-h)

compare: build ## every step's latest result against every article claim; A=<file> B=<file>: two runs of a step side by side, with a significance test; DIR=<folder>: many people's results, one table per step, one row per person
	@$(WORKSHOP) compare $(if $(A),-a '$(A)') $(if $(B),-b '$(B)') $(if $(DIR),-dir '$(DIR)')

report: build ## one HTML page of every chart and claim (results/report/index.html); REF=1: the reference runs, and the slides' figures
	@$(WORKSHOP) report $(if $(filter 1,$(REF)),-ref)

new-step: ## scaffold the next step: make new-step SLUG=rate-limit FUNC=Take (FUNC: the exercise's function; CONTRIBUTING.md, "Adding a step")
	@go run ./cmd/new-step -slug "$(SLUG)" $(if $(FUNC),-func "$(FUNC)")
	@$(MAKE) --no-print-directory docs

agenda: build-dev ## time every step's check and bench (SOLUTION=1) into docs/timings.json, then `make docs` puts them in the facilitator guide (long: run it the day before)
	@$(WORKSHOP_DEV) agenda $(if $(STEP),-step $(STEP))

docs: build-dev ## write results/reference figures into the READMEs' and docs/' generated regions
	@$(WORKSHOP_DEV) docs

slides: ## serve the decks on 127.0.0.1:3999, English and Tiếng Việt (Go present; press N for the presenter notes)
	@echo "decks: http://127.0.0.1:3999/index.article (English / Tiếng Việt; N opens the presenter notes; the charts come from results/reference: make report REF=1)"
	@go tool present -http 127.0.0.1:3999 -content slides -notes -play=false

handout: build-dev ## print every deck to PDF, one page per slide, and the learner's one-page cheat sheet (results/handout/; needs Chromium); LANG=vi: the Vietnamese decks (results/handout/vi/)
	@$(WORKSHOP_DEV) handout $(if $(filter vi%,$(LANG)),-lang vi)

test: build-dev ## everything CI runs: vet, all tests on real services, QUICK benches
	@$(WORKSHOP_DEV) test

compose-bench: ## Docker only, no Go: STEP=2 [SOLUTION=1] — the bench's table and results JSON, then k6's summary, all in containers
	@if [ -z "$(STEP_DIR)" ]; then echo "$(NEED_BENCH_STEP_$(BUILD_LANG))"; exit 2; fi
	mkdir -p results
	export STEP=$(STEP_DIR) PEAKLOAD_USER=$$(id -u):$$(id -g); \
	  docker compose -f compose/compose.yaml --profile bench run --rm --build bench && \
	  docker compose -f compose/compose.yaml --profile bench run --rm k6; \
	  rc=$$?; docker compose -f compose/compose.yaml --profile bench down; exit $$rc

test-compose: ## the Docker-only path for real (steps 1–2), where a Docker engine can start; stand-in images (k6: the Node shim, not k6)
	@bash compose/test-compose.sh

test-latency: build-dev ## steps 1–5 give the same verdicts with 0.2 ms added to every database round trip
	@$(WORKSHOP_DEV) test-latency

# The steps come from internal/harness/course/original.go (which stacks each
# step's originals run); CI runs this after test-latency (.ci/run).
test-originals: build-dev ## the sources' own stacks for real: QUICK ORIGINAL=1 benches (no original row skipped or failed), then their TestOriginal… tests
	@$(WORKSHOP_DEV) test-originals

test-busy: build-dev ## beside a busy loop on one CPU, no claim of steps 0 and 5 (STEPS=…) reads the opposite of the run without it
	@$(WORKSHOP_DEV) test-busy $(if $(STEPS),-steps $(STEPS))

clean: down ## stop services and delete .workshop/ (the database too)
	rm -rf .workshop
