#!/usr/bin/env bash
# Fuzz the MJCF reader and the binary model loader with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer; fails on any crash, leak, hang (-timeout) or out-of-memory.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 60);
#                                                  TARGET: xml, binary, fields (default all)
#
# fields sets one field, option or size of a corpus binary to a hostile value (fuzz/fuzz_fields.c).
#
# Builds the library with clang into build/fuzz (needs clang and its libFuzzer runtime:
# scripts/setup.sh installs them), makes the seed corpora from tests/models (build/fuzz/seeds),
# then runs each target from an empty temporary directory, so that an <include> in a fuzzed
# input finds no file to read. Inputs that found new coverage accumulate in build/fuzz/corpus,
# reproducers of failures go to build/fuzz/artifacts. See fuzz/README.md for longer runs.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)

seconds=${1:-60}
case "$seconds" in
  ''|*[!0-9]*) echo "usage: bash scripts/fuzz.sh [SECONDS] [xml|binary|fields ...]" >&2; exit 2 ;;
esac
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(xml binary fields)

cc=${GAUSS_FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "fuzz: $cc not found; run scripts/setup.sh (installs clang and libFuzzer)" >&2
  exit 1
fi

build=build/fuzz
mkdir -p "$build/obj" "$build/seeds/xml" "$build/seeds/binary" "$build/artifacts"
jobs=$(nproc)

# ---- build: the library instrumented for coverage and the sanitizers, then the targets ----
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-std=c11 -g -O1 -Wall -Wextra $san -Iinclude -Isrc $(pkg-config --cflags libxml-2.0 libpng)"
libs="$(pkg-config --libs libxml-2.0 libpng) -lqhull_r -lccd -lm"
objs=()
pids=()
for src in src/*/*.c; do
  obj="$build/obj/$(echo "${src#src/}" | tr / _).o"
  objs+=("$obj")
  if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find include src -name '*.h' -newer "$obj" -print -quit)" ]; then
    "$cc" $cflags -fsanitize=fuzzer-no-link -c "$src" -o "$obj" &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$jobs" ]; then wait "${pids[0]}" || { echo "fuzz: build failed" >&2; exit 1; }; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p" || { echo "fuzz: build failed" >&2; exit 1; }; done
rm -f "$build/libgauss_fuzz.a"
ar rcs "$build/libgauss_fuzz.a" "${objs[@]}" || exit 1

for t in xml binary fields; do
  "$cc" $cflags -Ifuzz -fsanitize=fuzzer "fuzz/fuzz_$t.c" "$build/libgauss_fuzz.a" $libs \
    -o "$build/fuzz_$t" || { echo "fuzz: cannot build fuzz_$t" >&2; exit 1; }
done
"$cc" $cflags fuzz/seeds.c "$build/libgauss_fuzz.a" $libs -o "$build/seeds_driver" || exit 1

# ---- seeds: the corpus models, as MJCF and as binaries ----
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
rm -rf "$build/seeds/xml" "$build/seeds/binary"
mkdir -p "$build/seeds/xml" "$build/seeds/binary"
"$build/seeds_driver" tests/models "$build/seeds/xml" "$build/seeds/binary" || {
  echo "fuzz: cannot make the seed corpora" >&2
  exit 1
}

# ---- run ----
failed=()
for t in "${targets[@]}"; do
  case "$t" in
    xml) extra=(-dict="$root/fuzz/mjcf.dict" -max_len=32768) ;;
    binary) extra=(-max_len=65536) ;;
    fields) extra=(-max_len=64) ;;
    *) echo "fuzz: unknown target '$t' (xml, binary, fields)" >&2; exit 2 ;;
  esac
  corpus="$root/$build/corpus/$t"
  mkdir -p "$corpus"
  work=$(mktemp -d)
  echo "== fuzz_$t for ${seconds}s (from $work)"
  log="$root/$build/fuzz_$t.log"
  seeddir="$root/$build/seeds/$t"
  [ "$t" = fields ] && seeddir=""  # its inputs are edits; the models come from GAUSS_FUZZ_SEEDS
  ( cd "$work" && GAUSS_FUZZ_SEEDS="$root/$build/seeds/binary" "$root/$build/fuzz_$t" "${extra[@]}" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$root/$build/artifacts/${t}-" \
      "$corpus" ${seeddir:+"$seeddir"} ) >"$log" 2>&1
  rc=$?
  # the empty directory must still be empty: the library read or wrote nothing there
  leftovers=$(ls -A "$work")
  rm -rf "$work"
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | tail -3
  if [ "$rc" -ne 0 ]; then
    tail -n 60 "$log"
    echo "fuzz: fuzz_$t FAILED (exit $rc); reproducer in $build/artifacts, log in $build/fuzz_$t.log"
    failed+=("$t")
  elif [ -n "$leftovers" ]; then
    echo "fuzz: fuzz_$t left files in its working directory: $leftovers"
    failed+=("$t")
  else
    echo "fuzz: fuzz_$t passed"
  fi
done

[ "${#failed[@]}" -eq 0 ]
