# `make demo` and `make test` work from a fresh Debian 12 machine: they install what is missing
# (as root; otherwise they print the apt-get line to run), configure, build into build/, then run.
# `make demo` builds only the syncbisim executable it runs; `make test` builds everything.
BUILD  ?= build
JOBS   ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNCBISIM_WERROR=ON
PACKAGES := g++ make cmake pkg-config libboost-graph-dev librapidcheck-dev libz3-dev \
            doctest-dev nlohmann-json3-dev libcli11-dev graphviz librsvg2-bin \
            python3 python3-dev pybind11-dev python3-pybind11 python3-pytest python3-jsonschema \
            libopenmpi-dev openmpi-bin libisl-dev lld ninja-build ccache
# `make test` and `make fuzz-readers` also need clang with libFuzzer for the readers' fuzz targets
# (fuzz/readers, docs/fuzzing.md); `make demo` does not.
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev
# `make test` also needs a headless browser for the --html pages' test (tests/browser, docs/report.md);
# `make demo` does not.
BROWSER_PACKAGES := chromium chromium-driver python3-selenium
FUZZ_SECONDS ?= 60

.PHONY: all deps deps-fuzz deps-browser configure build tool demo test fuzz-readers bench clean

all: build

deps-fuzz:
	@$(MAKE) --no-print-directory deps PACKAGES="$(FUZZ_PACKAGES)"

deps-browser:
	@$(MAKE) --no-print-directory deps PACKAGES="$(BROWSER_PACKAGES)"

deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing packages; run as root:"; echo "  apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# Ninja (Debian ninja-build) compiles a library's files as soon as the headers they need exist,
# where CMake's Makefiles wait for every library below to be built first: on two cores that keeps
# both busy (docs/choices.md "Build time"). A build directory made earlier keeps its generator.
configure: deps
	@if [ -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD) $(CMAKE_FLAGS) > /dev/null; \
	else cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) > /dev/null; fi

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

tool: configure
	@cmake --build $(BUILD) --target syncbisim -j $(JOBS)

demo: tool
	./$(BUILD)/syncbisim demo

test: deps-fuzz deps-browser build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Each reader's libFuzzer target for FUZZ_SECONDS (default 60), one after the other.
fuzz-readers: deps-fuzz configure
	@cmake --build $(BUILD) --target fuzz_readers -j $(JOBS)
	@for r in json_spec json_impl text expr; do \
	  bash fuzz/readers/run.sh $(BUILD)/fuzz-readers $$r $(FUZZ_SECONDS) || exit 1; done

bench: configure
	cmake --build $(BUILD) --target benchmarks -j $(JOBS)
	@for b in $(BUILD)/bench/bench_*; do [ -x "$$b" ] && echo "== $$b" && "$$b"; done
	@echo "== bench/bench_python_allocator.py" && PYTHONPATH=$(BUILD)/python /usr/bin/python3 bench/bench_python_allocator.py
	@if [ -x $(BUILD)/syncbisim-mpi ] && [ -x $(BUILD)/syncbisim ]; then \
	  echo "== bench/bench_distributed.sh" && bash bench/bench_distributed.sh $(BUILD); fi

clean:
	rm -rf $(BUILD)
