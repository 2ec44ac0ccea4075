# SPDX-License-Identifier: GPL-2.0-only
#
# vrampool: build the module, the userspace and the tests, and run the tests
# on the host, in a QEMU VM booting Debian's own 6.12 kernel, in one booting
# Debian's newest kernel (7.3, from trixie-backports), and in a QEMU VM
# booting a debug kernel built from Debian's linux-source-7.3 (the newest
# kernel's source, with the dmem cgroup controller Debian's build lacks).
#
#   make setup          install packages, fetch Debian's kernel (cached)
#   make module         build ./vrampool.ko against Debian's 6.12 headers
#   make selftests      build the kselftests into build/selftests/
#   make userspace      build libvrampool and vrampoolctl into build/userspace/
#   make check-host     host unit tests (tests/host) + the log checker's self-test
#   make check-debian   (alias check-vm) run the kselftests in the Debian-kernel VM
#   make setup-newest   the newest kernel's tier: Debian's stock image and
#                       modules (downloaded, never installed) and a trixie
#                       build root with its headers and compiler (cached)
#   make check-newest   the kselftests in a VM booting Debian's newest kernel,
#                       vrampool.ko built in that build root
#   make check-debug    the debug tier: build the debug kernel if its config or
#                       source changed (selftests/qemu/debug.config), vrampool.ko,
#                       vrampool_kunit.ko and vrampool_canary.ko for it; run the
#                       kselftests + KUnit in a VM booting it (fails on any KASAN,
#                       lockdep, kmemleak, ... report), then prove in a second
#                       boot that each detector catches its deliberate bug
#   make check          every tier, the packages too, and the instruction
#                       gate; the last line is
#                       "N passed, N failed[, N skipped]" summed over all
#   make check-insns    only the instruction gate: the benchmark's key counts
#                       under the insn_count plugin against
#                       selftests/qemu/insn-baseline.json (3% at most)
#   make insn-baseline  take that baseline anew from one counting boot
#   make debug-kernel   only build (or find cached) the debug kernel
#   make demo           boot the VM and show the devices
#   make bench          boot the Debian VM and measure (vrampool_bench_test):
#                       a table of ratios, the guest instructions of each
#                       operation from a second boot under the insn_count
#                       QEMU plugin, and build/bench/result.json
#   make plugin         only build that plugin (build/plugin/)
#   make install        the module (to /lib/modules/KVER/updates/, then depmod),
#                       libvrampool, its headers and vrampool.pc, vrampoolctl and
#                       its manual page (under PREFIX, default /usr/local);
#                       DESTDIR= stages it (no depmod); make uninstall
#   make dkms-install   the module's source to /usr/src/vrampool-VERSION, then
#                       dkms add, build, install (make dkms-remove undoes it)
#   make deb            the Debian packages (dpkg-buildpackage) into build/deb/
#   make check-pkg      build the packages, install and use them on this machine,
#                       dkms-build the module for KVER (and for the newest
#                       kernel in its build root) and run a kselftest on each
#                       in its kernel's VM (make check runs it too)
#   make fuzz SEED=S STEPS=N [DEVICE=D] [FAIL_NTH=1] [PROFILE=1]
#                       boot the Debian VM (the debug kernel with FAIL_NTH=1)
#                       and run only vrampool_fuzz_test, one seed (its
#                       clients on device D only, as make check's parallel
#                       runs): a failing seed replays; PROFILE=1 prints
#                       where its time goes
#   make soak           the storm test for 60 s instead of make check's 20 s
#   make mutants [MUTANTS="id ..."]
#                       plant each one-line bug of tests/mutants/mutants.list in
#                       a copy of the module, boot a VM with only the tests that
#                       should catch it, report CAUGHT (by which test) or
#                       SURVIVED (build/mutants/report); fails unless every one
#                       is caught. Not part of make check (22 min for 20 mutants)
#   make mutants-fuzz [MUTANTS="id ..."]
#                       the same mutants against the fuzzer alone (one seed,
#                       FUZZ_MUTANT_STEPS=30000): which bugs its model catches
#                       by itself (build/mutants/fuzz-report)
#   make htmldocs       Documentation/ as HTML in build/htmldocs (Sphinx with the
#                       kernel's kernel-doc extension)
#   make vm-shell       boot the VM into an interactive shell (Ctrl-a x quits)
#   make vm-shell-debug the same on the debug kernel
#   make vm-shell-newest the same on the newest kernel
#   make clean          remove build output (keeps the kernels)
#   make distclean      remove all of build/
#
# Knobs for the VM targets:
#   VRAMPOOL_ARGS="emulated_devices=2 vram_size=..."   module parameters
#   TESTS="vrampool_device_test"                        run only these tests
#   VM_APPEND="drm.debug=0x2"                           extra kernel parameters
#   TEST_TIMEOUT=300 VM_TIMEOUT=1500                    seconds (Debian kernel)
#   DEBUG_TEST_TIMEOUT=900 DEBUG_VM_TIMEOUT=2400        seconds (debug kernel)
#   DEBUG_SHARDS=2          debug VMs the kselftests are split over (1 with TESTS=)

BUILD       := $(CURDIR)/build
VM          := $(CURDIR)/selftests/qemu
VMDIR       := $(BUILD)/vm
KVER         = $(shell cat $(BUILD)/kernel/VERSION 2>/dev/null)
KDIR         = /lib/modules/$(KVER)/build
KSRC        := $(BUILD)/linux-source-6.12
KSFT        := $(KSRC)/tools/testing/selftests
MODDIR      ?= $(CURDIR)
KO          := $(MODDIR)/vrampool.ko
SELFTESTS   ?= $(CURDIR)/selftests
SELFTESTS_OUT := $(BUILD)/selftests
HOST_OUT    := $(BUILD)/host
USER_OUT    := $(BUILD)/userspace
INITRAMFS   := $(VMDIR)/initramfs.cpio
CHECK_LOG   := python3 $(VM)/check-log.py
SKIPS       := $(CURDIR)/selftests/expected-skips

# The newest-kernel tier: Debian's newest kernel (NEWEST_SERIES, from
# NEWEST_SUITE), its module built in a build root of NEWEST_ROOT_SUITE
# (setup-newest.sh, in-root.sh).
NEWEST_SERIES     ?= 7.3
NEWEST_SUITE      ?= trixie-backports
NEWEST_ROOT_SUITE ?= trixie
export NEWEST_SERIES NEWEST_SUITE NEWEST_ROOT_SUITE
NEW         := $(BUILD)/newest
NEW_KVER     = $(shell cat $(NEW)/VERSION 2>/dev/null)
NEW_ROOT    := $(NEW)/root
NEW_BZIMAGE  = $(BUILD)/kernel/$(NEW_KVER)/boot/vmlinuz-$(NEW_KVER)
NEW_MODDIR  := $(BUILD)/newest-module
NEW_INITRAMFS := $(VMDIR)/initramfs-newest.cpio
IN_ROOT     := $(VM)/in-root.sh

# The debug tier. build-debug-kernel.sh points current/ at the build.
DBG         := $(BUILD)/debug-kernel/current
DBG_KDIR    := $(DBG)/obj
DBG_KVER     = $(shell cat $(DBG)/release 2>/dev/null)
DBG_BZIMAGE := $(DBG_KDIR)/arch/x86/boot/bzImage
DBG_MODDIR  := $(BUILD)/debug-module
DBG_CANARY  := $(BUILD)/debug-canary
DBG_INITRAMFS := $(VMDIR)/initramfs-debug.cpio
# Once Kbuild names vrampool_kunit, the KUnit module must exist and run.
KUNIT_NEED   = $(if $(shell grep -s vrampool_kunit $(MODDIR)/Kbuild),required,optional)
# Module sources are copied (not built in place): the Debian build's
# objects in the repository must not meet the debug kernel's. Nor its
# scratch folders: kbuild's compiler probes make and remove .tmp_<pid>/ in
# the module's folder while "make check" copies it.
RSYNC_SRC   := rsync -a --delete --exclude=/build/ --exclude=/.git/ \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='.*.d' --exclude='*.a' --exclude='.*.tmp' \
	--exclude='.tmp_*' --exclude=Module.symvers --exclude=modules.order \
	--exclude='vrampool_compat_probed.h*'

VRAMPOOL_ARGS ?=
TESTS         ?=
VM_APPEND     ?=
TEST_TIMEOUT  ?= $(or $(shell sed -n 's/^timeout=//p' $(SELFTESTS)/settings 2>/dev/null),300)
# The Debian VM of make check runs its tests in about 800 s while the debug
# VMs and the host tier share the CPUs with it; it ends long before the debug
# VMs do, so a wider bound costs no wall time, only a hang is found later.
VM_TIMEOUT    ?= 1500
# KASAN, lockdep and kmemleak under TCG: allow three times as long.
DEBUG_TEST_TIMEOUT ?= $(shell echo $$(( $(TEST_TIMEOUT) * 3 )))
# The host tier's lint test runs sparse and 73 coccinelle scripts while the
# VMs of make check take every CPU (and the debug kernel builds, cold): it
# took more than 900 s beside both stock VMs, so six times as long.
HOST_TEST_TIMEOUT  ?= $(shell echo $$(( $(TEST_TIMEOUT) * 6 )))
DEBUG_VM_TIMEOUT   ?= 2400

VM_OPTS = --timeout $(VM_TIMEOUT) \
	$(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
	$(if $(TESTS),--tests "$(TESTS)") \
	--append "vrampool.timeout=$(TEST_TIMEOUT) $(VM_APPEND)"
# The newest VM runs every test as the Debian VM does, but the fuzzer's plan
# (same seeds and shape) at a quarter of its steps: the Debian VM runs the
# whole plan on the same code, and the newest VM beside it would otherwise
# take CPU the debug VMs need (their tests timed out beside two full plans).
NEWEST_FUZZ_STEPS ?= 35000
NEWEST_VM_OPTS = --timeout $(VM_TIMEOUT) \
	$(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
	$(if $(TESTS),--tests "$(TESTS)") \
	--append "vrampool.timeout=$(TEST_TIMEOUT) vrampool.fuzz_steps=$(NEWEST_FUZZ_STEPS) $(VM_APPEND)"
# $(call debug_vm_opts,EXTRA KERNEL PARAMETERS)
debug_vm_opts = --tier debug --kernel $(DBG_BZIMAGE) --initrd $(DBG_INITRAMFS) \
	--timeout $(DEBUG_VM_TIMEOUT) \
	$(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
	--append "vrampool.timeout=$(DEBUG_TEST_TIMEOUT) $(1) $(VM_APPEND)"

# The debug VM has one CPU and runs the tests several times slower than
# Debian's: they are split over DEBUG_SHARDS VMs booted at once (balanced on
# the durations of the last run, else on those committed in
# selftests/qemu/debug-durations; see shard-tests.py); shard 1 also runs KUnit.
DEBUG_SHARDS  ?= $(if $(TESTS),1,2)
SHARDS        := $(shell seq 1 $(DEBUG_SHARDS))
SHARD_LIST    := $(VMDIR)/debug-shards

RESULTS_DEBUG := $(foreach i,$(SHARDS),$(VMDIR)/debug-$(i).result) \
	$(VMDIR)/kunit.result $(VMDIR)/canary.result
PKG_OUT       := $(BUILD)/pkg
RESULTS_PKG   := $(PKG_OUT)/result $(VMDIR)/pkg.result $(VMDIR)/pkg-newest.result
RESULTS_NEW   := $(VMDIR)/newest.result
RESULTS_INSNS := $(VMDIR)/insns-vm.result $(VMDIR)/insns.result
RESULTS_ALL   := $(HOST_OUT)/result $(VMDIR)/check.result $(RESULTS_NEW) $(RESULTS_DEBUG) \
	$(RESULTS_PKG) $(RESULTS_INSNS)
RUNS_DEBUG    := $(foreach i,$(SHARDS),run-debug-$(i)) run-canary
RUNS_ALL      := run-host run-debian run-newest $(RUNS_DEBUG) run-pkg run-insns

.PHONY: all setup module selftests userspace initramfs \
	check check-host check-debian check-vm demo vm-shell clean distclean \
	debug-kernel debug-module debug-canary debug-initramfs check-debug vm-shell-debug \
	host-tests run-host run-debian run-canary debug-shards bench plugin htmldocs \
	run-insns check-insns insn-baseline \
	setup-newest module-newest initramfs-newest run-newest check-newest vm-shell-newest \
	install install-module install-userspace uninstall dkms-install dkms-remove \
	deb run-pkg check-pkg \
	fuzz soak mutants mutants-fuzz

all: module selftests userspace

setup:
	@$(VM)/setup.sh

module: setup
	$(MAKE) -C $(KDIR) M=$(MODDIR) modules

# selftests/Makefile is built on kselftest's lib.mk, included from $(KSFT).
# Tests (and helpers) whose source is gone are removed from the output, so
# the VM never runs a stale binary.
selftests: setup
	$(MAKE) -C $(SELFTESTS) OUTPUT=$(SELFTESTS_OUT) KSFT=$(KSFT)
	@for f in $(SELFTESTS_OUT)/*_test $(SELFTESTS_OUT)/*_test.sh \
			$(SELFTESTS_OUT)/*_test_helper; do \
		[ -e "$$f" ] || continue; \
		n=$${f##*/}; \
		[ -e "$(SELFTESTS)/$$n.c" ] || [ -e "$(SELFTESTS)/$$n" ] || rm -f "$$f"; \
	done

userspace: setup
	$(MAKE) -C $(CURDIR)/userspace OUT=$(USER_OUT)

initramfs: module selftests userspace
	@$(VM)/mkinitramfs.sh -k $(KVER) -o $(INITRAMFS) -m $(KO) -t $(SELFTESTS_OUT) \
		-b $(USER_OUT)/vrampoolctl-static

# Every suite is run in two steps: run-* writes logs (quietly, so that runs
# can go in parallel), then a judge reads them and prints results. The check-*
# targets do both; "make check" starts every run at once (the debug VMs are
# the long ones; each uses one CPU) and then judges them in order.

JUDGE_HOST = $(CHECK_LOG) --label host --expected-skips $(SKIPS).host \
	--result $(HOST_OUT)/result $(HOST_OUT)/host.log
# The releases are read when a judge runs (make expands check's whole
# recipe before its runs set the kernels up).
REL_DEBIAN = "$$(cat $(BUILD)/kernel/VERSION 2>/dev/null)"
REL_NEWEST = "$$(cat $(NEW)/VERSION 2>/dev/null)"
REL_DEBUG  = "$$(cat $(DBG)/release 2>/dev/null)"
JUDGE_DEBIAN = $(CHECK_LOG) --label vm --vm --console $(VMDIR)/check.console.log \
	--kernel $(REL_DEBIAN) \
	--expected-skips $(SKIPS).debian --result $(VMDIR)/check.result $(VMDIR)/check.log
JUDGE_NEWEST = $(CHECK_LOG) --label newest --vm --console $(VMDIR)/newest.console.log \
	--kernel $(REL_NEWEST) \
	--expected-skips $(SKIPS).debian --result $(VMDIR)/newest.result $(VMDIR)/newest.log
JUDGE_DEBUG = $(foreach i,$(SHARDS),\
	$(CHECK_LOG) --label debug-$(i) --vm --console $(VMDIR)/debug-$(i).console.log \
	--kernel $(REL_DEBUG) --expected-skips $(SKIPS).debug --result $(VMDIR)/debug-$(i).result \
	$(VMDIR)/debug-$(i).log --prefix-summary || rc=1;)
JUDGE_KUNIT = $(CHECK_LOG) --label kunit --kunit $(KUNIT_NEED) \
	--console $(VMDIR)/debug-1.console.log --expected-skips $(SKIPS).debug \
	--result $(VMDIR)/kunit.result $(VMDIR)/debug-1.log
JUDGE_CANARY = $(CHECK_LOG) --label canary --canary --console $(VMDIR)/canary.console.log \
	--result $(VMDIR)/canary.result $(VMDIR)/canary.log

# Host unit tests print kselftest TAP, like the VM tests; so does the log
# checker's self-test. run-tests.sh wraps each program in markers. As for
# the selftests, programs whose source is gone are removed from the output.
host-tests: setup
	@mkdir -p $(HOST_OUT)
	@$(MAKE) -C tests/host OUT=$(HOST_OUT) KSFT=$(KSFT)
	@for f in $(HOST_OUT)/*_test; do \
		[ -e "$$f" ] || continue; \
		n=$${f##*/}; n=$${n%_san_test}; n=$${n%_m32_test}; n=$${n%_test}; \
		[ -e "$(CURDIR)/tests/host/$${n}_test.c" ] || rm -f "$$f"; \
	done
	@$(MAKE) -s -C tests/cli OUT=$(HOST_OUT) USER_OUT=$(USER_OUT)
	@$(MAKE) -s -C tests/lint OUT=$(HOST_OUT) KSRC=$(KSRC) KDIR=$(KDIR)

run-host: host-tests
	@rm -f $(HOST_OUT)/result
	@{ $(VM)/run-tests.sh -t $(HOST_TEST_TIMEOUT) $(HOST_OUT); \
	   $(VM)/run-tests.sh -t $(TEST_TIMEOUT) $(VM) check-log-selftest.sh run-vm-selftest.sh \
		insn-gate-selftest.sh; } \
		> $(HOST_OUT)/host.log

check-host: run-host
	@$(JUDGE_HOST)

run-debian: initramfs
	@rm -f $(VMDIR)/check.result
	@echo "VM: booting $(KVER); logs: $(VMDIR)/check.log, check.console.log"
	@$(VM)/run-vm.sh --mode check --name check $(VM_OPTS) || true

check-debian: run-debian
	@$(JUDGE_DEBIAN)

check-vm: check-debian

# --- The newest kernel --------------------------------------------------------
# The same kselftests as the Debian VM, on Debian's stock newest kernel;
# vrampool.ko is built against that kernel's own headers with its own
# compiler, inside the build root.

setup-newest: setup
	@$(VM)/setup-newest.sh

module-newest: setup-newest
	@mkdir -p $(NEW_MODDIR)
	@$(RSYNC_SRC) $(MODDIR)/ $(NEW_MODDIR)/
	@$(IN_ROOT) $(NEW_ROOT) --bind $(NEW_MODDIR):/src/vrampool -- \
		make -C /usr/src/linux-headers-$(NEW_KVER) M=/src/vrampool -j$(shell nproc) modules

initramfs-newest: module-newest selftests userspace
	@$(VM)/mkinitramfs.sh -k $(NEW_KVER) -o $(NEW_INITRAMFS) -m $(NEW_MODDIR)/vrampool.ko \
		-t $(SELFTESTS_OUT) -b $(USER_OUT)/vrampoolctl-static

run-newest: initramfs-newest
	@rm -f $(VMDIR)/newest.result
	@echo "VM: booting $(NEW_KVER); logs: $(VMDIR)/newest.log, newest.console.log"
	@$(VM)/run-vm.sh --mode check --name newest --kernel $(NEW_BZIMAGE) \
		--initrd $(NEW_INITRAMFS) $(NEWEST_VM_OPTS) || true

check-newest: run-newest
	@$(JUDGE_NEWEST)

vm-shell-newest: initramfs-newest
	@$(VM)/run-vm.sh --mode shell --kernel $(NEW_BZIMAGE) --initrd $(NEW_INITRAMFS) $(VM_OPTS)

# --- The debug tier -----------------------------------------------------------

debug-kernel: setup-newest
	@$(VM)/build-debug-kernel.sh

debug-module: debug-kernel
	@mkdir -p $(DBG_MODDIR)
	@$(RSYNC_SRC) $(MODDIR)/ $(DBG_MODDIR)/
	$(MAKE) -C $(DBG_KDIR) M=$(DBG_MODDIR) modules

debug-canary: debug-kernel
	@mkdir -p $(DBG_CANARY)
	@$(RSYNC_SRC) $(CURDIR)/selftests/canary/ $(DBG_CANARY)/
	$(MAKE) -C $(DBG_KDIR) M=$(DBG_CANARY) modules

# The same test binaries as the Debian VM; the debug kernel's modules.
debug-initramfs: debug-module debug-canary selftests userspace
	@$(VM)/mkinitramfs.sh -k $(DBG_KVER) -r $(DBG)/root -o $(DBG_INITRAMFS) \
		-m $(DBG_MODDIR)/vrampool.ko -t $(SELFTESTS_OUT) \
		-b $(USER_OUT)/vrampoolctl-static -e $(DBG_CANARY)/vrampool_canary.ko \
		$(if $(filter required,$(KUNIT_NEED)),-e $(DBG_MODDIR)/vrampool_kunit.ko)

# One line per shard: its test programs. Computed once, before any shard
# starts (each VM rewrites its own log, which later splits learn from).
debug-shards: debug-initramfs
	@mkdir -p $(VMDIR)
	@for i in $(SHARDS); do \
		python3 $(VM)/shard-tests.py $(DEBUG_SHARDS) $$i $(SELFTESTS_OUT) \
			$(if $(TESTS),--only "$(TESTS)") --durations $(VM)/debug-durations \
			$(wildcard $(VMDIR)/debug-*.log); \
	done > $(SHARD_LIST)

# run-debug-N: shard N (not .PHONY: a pattern rule).
run-debug-%: debug-shards
	@rm -f $(VMDIR)/debug-$*.result $(if $(filter 1,$*),$(VMDIR)/kunit.result)
	@tests=$$(sed -n '$*p' $(SHARD_LIST)); \
	echo "VM: booting the debug kernel $(DBG_KVER) for $$(echo $$tests | wc -w) tests$(if $(filter 1,$*), + KUnit); logs: $(VMDIR)/debug-$*.log, debug-$*.console.log"; \
	if [ -z "$$tests" ]; then echo "debug-$*: no tests for this shard" >&2; exit 1; fi; \
	$(VM)/run-vm.sh --mode check --name debug-$* --tests "$$tests" \
		$(call debug_vm_opts,$(if $(filter 1,$*),,vrampool.kunit=0)) || true

run-canary: debug-initramfs
	@rm -f $(VMDIR)/canary.result
	@echo "VM: booting the debug kernel with vrampool_canary.ko; logs: $(VMDIR)/canary.log, canary.console.log"
	@$(VM)/run-vm.sh --mode canary --name canary $(call debug_vm_opts,) --timeout 600 || true

# Results: per shard, the kselftests + every kernel report (debug-N.result),
# the KUnit cases (kunit.result), the detector proof (canary.result). All the
# VMs run at once; every result is judged even when one fails.
check-debug:
	@rm -f $(RESULTS_DEBUG)
	@rc=0; \
	$(MAKE) -s --no-print-directory -k -j$(words $(RUNS_DEBUG)) $(RUNS_DEBUG) || rc=1; \
	$(JUDGE_DEBUG) \
	$(JUDGE_KUNIT) --prefix-summary || rc=1; \
	$(JUDGE_CANARY) --prefix-summary || rc=1; \
	echo "== total (debug kernel + KUnit + canary)"; \
	$(CHECK_LOG) --sum $(RESULTS_DEBUG) || rc=1; \
	exit $$rc

# Every tier runs even when one fails; the total is the last line.
check:
	@rm -f $(RESULTS_ALL)
	@rc=0; \
	$(MAKE) -s --no-print-directory -k -j$(words $(RUNS_ALL)) $(RUNS_ALL) || rc=1; \
	$(JUDGE_HOST) --prefix-summary || rc=1; \
	$(JUDGE_DEBIAN) --prefix-summary || rc=1; \
	$(JUDGE_NEWEST) --prefix-summary || rc=1; \
	$(JUDGE_DEBUG) \
	$(JUDGE_KUNIT) --prefix-summary || rc=1; \
	$(JUDGE_CANARY) --prefix-summary || rc=1; \
	$(JUDGE_PKG) --prefix-summary || rc=1; \
	$(JUDGE_PKG_VM) --prefix-summary || rc=1; \
	$(JUDGE_PKG_VM_NEW) --prefix-summary || rc=1; \
	$(JUDGE_INSNS_VM) --prefix-summary || rc=1; \
	$(JUDGE_INSNS) || rc=1; \
	echo "== total (host + Debian $(REL_DEBIAN) VM + newest $(REL_NEWEST) VM + debug $(REL_DEBUG) VM + KUnit + canary + packages + instruction gate)"; \
	$(CHECK_LOG) --sum $(RESULTS_ALL) || rc=1; \
	exit $$rc

demo: initramfs
	@$(VM)/run-vm.sh --mode demo --name demo --stream $(VM_OPTS) --timeout 120

# The benchmark's full run in the Debian VM: figures are only compared with
# each other, within this one boot (see the README).
# A second boot runs it again under the insn_count QEMU plugin
# (selftests/qemu/plugin), which counts the guest instructions of every
# timed span: its times are the plugin's, never read; its counts go beside
# the first boot's times. It also profiles the warm pairs (slot 5) and the
# batches (slots 1 and 2) by function; without KASLR, the kernel's symbols
# that boot prints name its addresses (Debian's System.map is a stub).
BENCH_OUT := $(BUILD)/bench
PLUGIN_DIR := $(BUILD)/plugin
PLUGIN := $(PLUGIN_DIR)/libinsn_count.so
# setup installs the QEMU whose header build.sh fetches.
$(PLUGIN): $(VM)/plugin/insn_count.c $(VM)/plugin/build.sh | setup
	@$(VM)/plugin/build.sh $(PLUGIN_DIR) > /dev/null

plugin: $(PLUGIN)

# The benchmark's device has 512 MiB of VRAM: 10^6 live slices of 256
# bytes take 256 MB of it. Its counting boot runs under -icount shift=0, as
# the gate's does (below): its times are never read.
BENCH_ARGS := vram_size=536870912 $(VRAMPOOL_ARGS)

bench: initramfs $(PLUGIN)
	@mkdir -p $(BENCH_OUT)
	@echo "VM: booting $(KVER) for the benchmark; log: $(VMDIR)/bench.log"
	@$(VM)/run-vm.sh --mode check --name bench --tests vrampool_bench_test \
		--timeout $(VM_TIMEOUT) --args "$(BENCH_ARGS)" \
		--append "vrampool.timeout=1800 vrampool.bench=full $(VM_APPEND)" || true
	@echo "VM: booting $(KVER) again, counting instructions; log: $(VMDIR)/bench-insns.log"
	@rm -f $(BENCH_OUT)/insns.txt
	@VRAMPOOL_QEMU_EXTRA="-icount shift=0 -plugin $(PLUGIN),out=$(BENCH_OUT)/insns.txt,profile=5,profile=1,profile=2" \
		$(VM)/run-vm.sh --mode check --name bench-insns --tests vrampool_bench_test \
		--timeout $(VM_TIMEOUT) --args "$(BENCH_ARGS)" \
		--append "vrampool.timeout=1800 vrampool.bench=full nokaslr vrampool.kallsyms=1 $(VM_APPEND)" || true
	@python3 $(VM)/bench-report.py $(VMDIR)/bench.log $(BENCH_OUT)/result.json \
		--insns $(VMDIR)/bench-insns.log $(BENCH_OUT)/insns.txt \
		--symbols $(VMDIR)/bench-insns.log \
		$(BUILD)/kernel/$(KVER)/lib/modules/$(KVER) vrampool=$(KO)

# The instruction gate (make check runs it): vrampool_bench_test's gate run
# (the smoke run with 15 repetitions) under the counting plugin, its key
# rows against selftests/qemu/insn-baseline.json; insn-gate.py fails a row
# that grew more than 3% and names the functions that grew. Counts, unlike
# times, do not depend on how busy the host is, once the guest's clock
# follows its instructions (-icount shift=0: 1 ns each, which turns MTTCG
# off): its timer interrupts then fall every 4 million instructions however
# slowly the host runs the VM, where under a real-time clock a busy host let
# them into every repetition (+2.5% under make check's load). make
# insn-baseline takes a new baseline on purpose.
INSN_OUT      := $(BUILD)/insns
INSN_BASELINE := $(VM)/insn-baseline.json
INSN_REPORT   := python3 $(VM)/bench-report.py $(VMDIR)/insns.log $(INSN_OUT)/result.json \
	--insns $(VMDIR)/insns.log $(INSN_OUT)/counts.txt --symbols $(VMDIR)/insns.log \
	$(BUILD)/kernel/$(KVER)/lib/modules/$(KVER) vrampool=$(KO)
JUDGE_INSNS_VM = $(CHECK_LOG) --label insns-vm --vm --icount --console $(VMDIR)/insns.console.log \
	--kernel $(REL_DEBIAN) --expected-skips $(SKIPS).debian \
	--result $(VMDIR)/insns-vm.result $(VMDIR)/insns.log
JUDGE_INSNS = python3 $(VM)/insn-gate.py $(INSN_OUT)/result.json $(INSN_BASELINE) \
	--result $(VMDIR)/insns.result

run-insns: initramfs $(PLUGIN)
	@mkdir -p $(INSN_OUT)
	@rm -f $(INSN_OUT)/counts.txt $(INSN_OUT)/result.json $(VMDIR)/insns.result \
		$(VMDIR)/insns-vm.result
	@echo "VM: booting $(KVER) under the instruction counter (the gate); log: $(VMDIR)/insns.log"
	@VRAMPOOL_QEMU_EXTRA="-icount shift=0 -plugin $(PLUGIN),out=$(INSN_OUT)/counts.txt,profile=5,profile=1,profile=2" \
		$(VM)/run-vm.sh --mode check --name insns --tests vrampool_bench_test \
		--timeout $(VM_TIMEOUT) $(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
		--append "vrampool.timeout=600 vrampool.bench=gate nokaslr vrampool.kallsyms=1 $(VM_APPEND)" || true
	@$(INSN_REPORT) > $(INSN_OUT)/report.txt 2>&1 || true

check-insns: run-insns
	@rc=0; $(JUDGE_INSNS_VM) --prefix-summary || rc=1; $(JUDGE_INSNS) || rc=1; exit $$rc

insn-baseline: run-insns
	@python3 $(VM)/insn-gate.py $(INSN_OUT)/result.json $(INSN_BASELINE) --update

# --- Installing and packaging -------------------------------------------------

# The release, written in VERSION alone (userspace/Makefile, debian/rules and
# the DKMS source tree take it from there; tests/pkg checks debian/changelog).
VERSION     := $(shell cat $(CURDIR)/VERSION)
PREFIX      ?= /usr/local
# The kernel the module is built and installed for: the one `make module`
# builds for, else the running one.
INSTALL_KVER ?= $(or $(KVER),$(shell uname -r))
MODULE_DEST  = $(DESTDIR)/lib/modules/$(INSTALL_KVER)/updates
# The files of the module's source, as DKMS and the -dkms package get them.
MODULE_SRC  := Kbuild dkms.conf VERSION driver common uapi
DKMS_SRC    := /usr/src/vrampool-$(VERSION)

install: install-module install-userspace

install-module:
	$(MAKE) -C /lib/modules/$(INSTALL_KVER)/build M=$(MODDIR) modules
	install -D -m 644 $(KO) $(MODULE_DEST)/vrampool.ko
ifeq ($(DESTDIR),)
	depmod -a $(INSTALL_KVER)
else
	@echo "install: DESTDIR is set: no depmod (run depmod $(INSTALL_KVER) where it is installed)"
endif

install-userspace:
	$(MAKE) -C $(CURDIR)/userspace OUT=$(USER_OUT) PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) install

uninstall:
	rm -f $(MODULE_DEST)/vrampool.ko
	$(if $(DESTDIR),,depmod -a $(INSTALL_KVER))
	$(MAKE) -C $(CURDIR)/userspace OUT=$(USER_OUT) PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) uninstall

# DKMS builds the module again for every kernel installed later.
dkms-install:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cd $(CURDIR) && $(RSYNC_SRC) -R $(MODULE_SRC) $(DKMS_SRC)/
	sed -i 's/#MODULE_VERSION#/$(VERSION)/' $(DKMS_SRC)/dkms.conf
	dkms add vrampool/$(VERSION)
	dkms build vrampool/$(VERSION) -k $(INSTALL_KVER)
	dkms install vrampool/$(VERSION) -k $(INSTALL_KVER)

dkms-remove:
	-dkms remove vrampool/$(VERSION) --all
	rm -rf $(DKMS_SRC)

# The packages: vrampool-dkms, libvrampool1, libvrampool-dev, vrampool-tools.
deb:
	@$(CURDIR)/tests/pkg/build-debs.sh $(BUILD)/deb

# The package tier: tests/pkg/pkg_test.sh on this machine (it builds the
# packages, installs, uses and removes them, and leaves the DKMS-built
# modules for KVER and NEW_KVER, the latter built in the newest kernel's
# build root, and the README's example, built statically, in build/pkg/),
# then each module in its kernel's VM running one kselftest and the example
# (build/pkg/vm-tests: the kselftests plus those two). run-pkg writes the
# logs, the judges read them.
PKG_VM_TESTS  ?= vrampool_device_test vrampool_runtime_example_test.sh
JUDGE_PKG = $(CHECK_LOG) --label pkg --expected-skips $(SKIPS).host \
	--result $(PKG_OUT)/result $(PKG_OUT)/pkg.log
JUDGE_PKG_VM = $(CHECK_LOG) --label pkg-vm --vm --console $(VMDIR)/pkg.console.log \
	--kernel $(REL_DEBIAN) \
	--expected-skips $(SKIPS).debian --result $(VMDIR)/pkg.result $(VMDIR)/pkg.log
JUDGE_PKG_VM_NEW = $(CHECK_LOG) --label pkg-vm-newest --vm \
	--console $(VMDIR)/pkg-newest.console.log --kernel $(REL_NEWEST) \
	--expected-skips $(SKIPS).debian --result $(VMDIR)/pkg-newest.result $(VMDIR)/pkg-newest.log

# $(call pkg_vm,NAME,KVER,MODULE,RUN-VM OPTIONS): boot KVER with the
# DKMS-built MODULE and PKG_VM_TESTS; logs $(VMDIR)/NAME.log and .console.log.
define pkg_vm
	if [ -f $(3) ]; then \
		$(VM)/mkinitramfs.sh -k $(2) -o $(VMDIR)/initramfs-$(1).cpio -m $(3) \
			-t $(PKG_OUT)/vm-tests -b $(USER_OUT)/vrampoolctl-static && \
		echo "VM: booting $(2) with the DKMS-built module; logs: $(VMDIR)/$(1).log, $(1).console.log" && \
		$(VM)/run-vm.sh --mode check --name $(1) --initrd $(VMDIR)/initramfs-$(1).cpio $(4) \
			--tests "$(PKG_VM_TESTS)" --timeout $(VM_TIMEOUT) \
			--append "vrampool.timeout=$(TEST_TIMEOUT) $(VM_APPEND)" || true; \
	else \
		echo "$(1): no DKMS-built module for $(2) (see $(PKG_OUT)/pkg.log): the VM is not booted" \
			> $(VMDIR)/$(1).log; \
	fi
endef

run-pkg: setup setup-newest selftests userspace
	@rm -f $(RESULTS_PKG) $(PKG_OUT)/vrampool.ko $(PKG_OUT)/newest/vrampool.ko
	@mkdir -p $(PKG_OUT) $(VMDIR)
	@VRAMPOOL_PKG_OUT=$(PKG_OUT) VRAMPOOL_KVER=$(KVER) VRAMPOOL_NEW_KVER=$(NEW_KVER) \
		VRAMPOOL_NEW_ROOT=$(NEW_ROOT) \
		$(VM)/run-tests.sh -t $(HOST_TEST_TIMEOUT) $(CURDIR)/tests/pkg pkg_test.sh > $(PKG_OUT)/pkg.log
	@rm -rf $(PKG_OUT)/vm-tests && cp -a $(SELFTESTS_OUT) $(PKG_OUT)/vm-tests && \
		cp $(CURDIR)/tests/pkg/vrampool_runtime_example_test.sh $(PKG_OUT)/vm-tests/ && \
		{ [ ! -f $(PKG_OUT)/vrampool_runtime_example ] || \
		  cp $(PKG_OUT)/vrampool_runtime_example $(PKG_OUT)/vm-tests/; }
	@$(call pkg_vm,pkg,$(KVER),$(PKG_OUT)/vrampool.ko,)
	@$(call pkg_vm,pkg-newest,$(NEW_KVER),$(PKG_OUT)/newest/vrampool.ko,--kernel $(NEW_BZIMAGE))

check-pkg: run-pkg
	@rc=0; $(JUDGE_PKG) || rc=1; $(JUDGE_PKG_VM) || rc=1; $(JUDGE_PKG_VM_NEW) || rc=1; exit $$rc

# One fuzzer seed alone (the seed and steps reach the test through the
# kernel command line, see selftests/qemu/init); FAIL_NTH=1 on the debug
# kernel, which has fault injection.
SEED      ?= 1
STEPS     ?= 100000
FAIL_NTH  ?=
PROFILE   ?=
DEVICE    ?=
FUZZ_APPEND = vrampool.fuzz_seed=$(SEED) vrampool.fuzz_steps=$(STEPS) \
	$(if $(FAIL_NTH),vrampool.fuzz_fail_nth=1) $(if $(PROFILE),vrampool.fuzz_profile=1) \
	$(if $(DEVICE),vrampool.fuzz_device=$(DEVICE))
ifeq ($(FAIL_NTH),)
fuzz: initramfs
	@echo "VM: booting $(KVER) for the fuzzer, seed $(SEED), $(STEPS) steps; log: $(VMDIR)/fuzz.log"
	@$(VM)/run-vm.sh --mode check --name fuzz --tests vrampool_fuzz_test \
		--timeout $(VM_TIMEOUT) $(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
		--append "vrampool.timeout=$(VM_TIMEOUT) $(FUZZ_APPEND) $(VM_APPEND)" || true
	@$(CHECK_LOG) --label fuzz --vm --console $(VMDIR)/fuzz.console.log \
		--expected-skips $(SKIPS).debian --result $(VMDIR)/fuzz.result $(VMDIR)/fuzz.log
else
fuzz: debug-initramfs
	@echo "VM: booting the debug kernel for the fuzzer (fail-nth), seed $(SEED), $(STEPS) steps; log: $(VMDIR)/fuzz.log"
	@$(VM)/run-vm.sh --mode check --name fuzz --tests vrampool_fuzz_test \
		$(call debug_vm_opts,vrampool.kunit=0 $(FUZZ_APPEND)) || true
	@$(CHECK_LOG) --label fuzz --vm --console $(VMDIR)/fuzz.console.log \
		--expected-skips $(SKIPS).debug --result $(VMDIR)/fuzz.result $(VMDIR)/fuzz.log
endif

# The storm test for 60 s (make check runs it for 20 s).
soak: initramfs
	@echo "VM: booting $(KVER) for a 60 s storm; log: $(VMDIR)/soak.log"
	@$(VM)/run-vm.sh --mode check --name soak --tests vrampool_storm_test \
		--timeout $(VM_TIMEOUT) $(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
		--append "vrampool.timeout=$(TEST_TIMEOUT) vrampool.storm_secs=60 $(VM_APPEND)" || true
	@$(CHECK_LOG) --label soak --vm --console $(VMDIR)/soak.console.log \
		--expected-skips $(SKIPS).debian --result $(VMDIR)/soak.result $(VMDIR)/soak.log

# Planted bugs (tests/mutants/run-mutants.py): the kselftests are built
# once from this tree, the module once per mutant in build/mutants/src-TIER/
# (only the changed file is compiled again); MUTANTS_BASELINE=0 skips the
# run of the unchanged module.
MUTANTS          ?=
MUTANTS_BASELINE ?= 1
# run_mutants VM_APPEND,ARGS: run-mutants.py with the build's settings.
run_mutants = KVER=$(KVER) KDIR=$(KDIR) DBG_KVER=$(DBG_KVER) DBG_KDIR=$(DBG_KDIR) \
	DBG_BZIMAGE=$(DBG_BZIMAGE) DBG_ROOT=$(DBG)/root \
	TEST_TIMEOUT=$(TEST_TIMEOUT) VM_TIMEOUT=$(VM_TIMEOUT) \
	DEBUG_TEST_TIMEOUT=$(DEBUG_TEST_TIMEOUT) DEBUG_VM_TIMEOUT=$(DEBUG_VM_TIMEOUT) \
	VM_APPEND="$(1)" python3 $(CURDIR)/tests/mutants/run-mutants.py $(2) \
	$(if $(filter 0,$(MUTANTS_BASELINE)),--no-baseline) $(MUTANTS)
mutants: selftests userspace debug-kernel
	@$(call run_mutants,$(VM_APPEND),)

# The fuzzer alone against planted bugs: each mutant's own tests replaced by
# one seed of vrampool_fuzz_test (FUZZ_MUTANT_STEPS steps over every device);
# its MISMATCH lines name what the model saw (build/mutants/ID/).
FUZZ_MUTANT_SEED  ?= 1
FUZZ_MUTANT_STEPS ?= 30000
mutants-fuzz: selftests userspace debug-kernel
	@$(call run_mutants,vrampool.fuzz_seed=$(FUZZ_MUTANT_SEED) \
		vrampool.fuzz_steps=$(FUZZ_MUTANT_STEPS) $(VM_APPEND),\
		--tests vrampool_fuzz_test --report fuzz-report)

htmldocs: setup
	@sphinx-build -q -b html $(CURDIR)/Documentation $(BUILD)/htmldocs
	@echo "htmldocs: $(BUILD)/htmldocs/index.html"

vm-shell: initramfs
	@$(VM)/run-vm.sh --mode shell $(VM_OPTS)

vm-shell-debug: debug-initramfs
	@$(VM)/run-vm.sh --mode shell $(call debug_vm_opts,)

# Not "make -C $(KDIR) M=... clean": kbuild's clean deletes every *.ko.* and
# *.[aios] below M, build/ included (Debian's modules among them).
KBUILD_JUNK := -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
	-o -name '.*.cmd' -o -name '.*.d' -o -name '*.dwo' -o -name '.*.tmp' \
	-o -name Module.symvers -o -name modules.order -o -name 'vrampool_compat_probed.h*'

clean:
	find $(MODDIR) \( -path $(BUILD) -o -name .git \) -prune -o \
		-type f \( $(KBUILD_JUNK) \) -print0 | xargs -0r rm -f
	rm -rf $(SELFTESTS_OUT) $(HOST_OUT) $(USER_OUT) $(VMDIR) $(DBG_MODDIR) $(DBG_CANARY) \
		$(NEW_MODDIR)

distclean: clean
	rm -rf $(BUILD)
