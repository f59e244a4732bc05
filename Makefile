# Kibitz front door. `make run` and `make test` do all the set-up on a fresh Debian machine.
PRESET ?= release
BUILD  := build/$(PRESET)
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: run test bench python format build configure deps asan clean

run: configure
	cmake --build $(BUILD) -j $(JOBS) --target kibitz
	$(BUILD)/kibitz demo

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) > ctest.log 2>&1; status=$$?; \
	  if [ $$status -ne 0 ]; then cat ctest.log; else tail -n 8 ctest.log; fi; \
	  summary=$$(grep -E 'tests passed|tests failed' ctest.log | tail -n 1); \
	  echo "make test: $${summary:-no summary (see $(BUILD)/ctest.log)}"; exit $$status

bench: build
	$(BUILD)/bench/kibitz_bench --benchmark_min_time=0.2
	$(BUILD)/kibitz perft --depth 6

# The Python module: build/<preset>/python/kibitz (docs/python.md).
python: configure
	cmake --build $(BUILD) -j $(JOBS) --target kibitz_python
	@echo "make python: PYTHONPATH=$(BUILD)/python /usr/bin/python3 -c 'import kibitz'"

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS) --target unit_label
	ctest --preset asan

build: configure
	cmake --build $(BUILD) -j $(JOBS)

configure: deps
	@test -f $(BUILD)/build.ninja || cmake --preset $(PRESET)

deps:
	@./scripts/install-deps

clean:
	rm -rf build
