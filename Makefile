# SPDX-License-Identifier: GPL-2.0-only
#
# vrampool: build the module, the userspace and the tests, and run the tests
# on the host and in a QEMU VM booting Debian's own 6.12 kernel.
#
#   make setup          install packages, fetch Debian's kernel (cached)
#   make module         build ./vrampool.ko against Debian's 6.12 headers
#   make selftests      build the kselftests into build/selftests/
#   make userspace      build libvrampool and vrampoolctl into build/userspace/
#   make check-host     host unit tests (tests/host) + the log checker's self-test
#   make check-debian   (alias check-vm) run the kselftests in the VM
#   make check          both; the last line is "N passed, N failed[, N skipped]"
#   make demo           boot the VM and show the devices
#   make vm-shell       boot the VM into an interactive shell (Ctrl-a x quits)
#   make clean          remove build output (keeps the downloaded kernel)
#   make distclean      remove all of build/
#
# Knobs for the VM targets:
#   VRAMPOOL_ARGS="emulated_devices=2 vram_size=..."   module parameters
#   TESTS="vrampool_device_test"                        run only these tests
#   VM_APPEND="drm.debug=0x2"                           extra kernel parameters
#   TEST_TIMEOUT=300 VM_TIMEOUT=900                     seconds

BUILD       := $(CURDIR)/build
VM          := $(CURDIR)/selftests/vm
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
CHECK_LOG   := python3 $(VM)/check-log.py --expected-skips $(CURDIR)/selftests/expected-skips
# Under "make check" a failing suite does not stop the other: the total
# line decides the exit status.
KEEP_GOING   = $(if $(IN_CHECK),--prefix-summary || true)

VRAMPOOL_ARGS ?=
TESTS         ?=
VM_APPEND     ?=
TEST_TIMEOUT  ?= $(or $(shell sed -n 's/^timeout=//p' $(SELFTESTS)/settings 2>/dev/null),300)
VM_TIMEOUT    ?= 900

VM_OPTS = --timeout $(VM_TIMEOUT) \
	$(if $(VRAMPOOL_ARGS),--args "$(VRAMPOOL_ARGS)") \
	$(if $(TESTS),--tests "$(TESTS)") \
	--append "vrampool.timeout=$(TEST_TIMEOUT) $(VM_APPEND)"

.PHONY: all setup module selftests userspace initramfs \
	check check-host check-debian check-vm demo vm-shell clean distclean

all: module selftests userspace

setup:
	@$(VM)/setup.sh

module: setup
	$(MAKE) -C $(KDIR) M=$(MODDIR) modules

# Tests whose source is gone are removed from the output, so the VM never
# runs a stale binary.
selftests: setup
	$(MAKE) -C $(SELFTESTS) OUT=$(SELFTESTS_OUT) KSFT=$(KSFT)
	@for f in $(SELFTESTS_OUT)/*_test $(SELFTESTS_OUT)/*_test.sh; do \
		[ -e "$$f" ] || continue; \
		n=$${f##*/}; \
		[ -e "$(SELFTESTS)/$$n.c" ] || [ -e "$(SELFTESTS)/$$n" ] || rm -f "$$f"; \
	done

userspace: setup
	$(MAKE) -C $(CURDIR)/userspace OUT=$(USER_OUT)

initramfs: module selftests userspace
	@$(VM)/mkinitramfs.sh -k $(KVER) -o $(INITRAMFS) -m $(KO) -t $(SELFTESTS_OUT) \
		-b $(USER_OUT)/vrampoolctl-static

# Host unit tests print kselftest TAP, like the VM tests; so does the log
# checker's self-test. run-tests.sh wraps each program in markers.
check-host: setup
	@rm -f $(HOST_OUT)/result
	@mkdir -p $(HOST_OUT)
	@if [ -f tests/host/Makefile ]; then \
		$(MAKE) -C tests/host OUT=$(HOST_OUT) KSFT=$(KSFT); \
	else \
		echo "check-host: no tests/host/Makefile yet: only the checker's self-test runs"; \
	fi
	@{ $(VM)/run-tests.sh -t $(TEST_TIMEOUT) $(HOST_OUT); \
	   $(VM)/run-tests.sh -t 60 $(VM) check-log-selftest.sh; } > $(HOST_OUT)/host.log
	@$(CHECK_LOG) --label host --result $(HOST_OUT)/result $(HOST_OUT)/host.log $(KEEP_GOING)

check-debian: initramfs
	@rm -f $(VMDIR)/check.result
	@echo "VM: booting $(KVER); logs: $(VMDIR)/check.log, check.console.log"
	@$(VM)/run-vm.sh --mode check --name check $(VM_OPTS) || true
	@$(CHECK_LOG) --label vm --vm --console $(VMDIR)/check.console.log \
		--result $(VMDIR)/check.result $(VMDIR)/check.log $(KEEP_GOING)

check-vm: check-debian

# Both suites run even when one fails; the total is the last line.
check:
	@rm -f $(HOST_OUT)/result $(VMDIR)/check.result
	@rc=0; \
	$(MAKE) -s --no-print-directory IN_CHECK=1 check-host || rc=1; \
	$(MAKE) -s --no-print-directory IN_CHECK=1 check-debian || rc=1; \
	echo "== total (host + VM)"; \
	$(CHECK_LOG) --sum $(HOST_OUT)/result $(VMDIR)/check.result || rc=1; \
	exit $$rc

demo: initramfs
	@$(VM)/run-vm.sh --mode demo --name demo --stream $(VM_OPTS) --timeout 120

vm-shell: initramfs
	@$(VM)/run-vm.sh --mode shell $(VM_OPTS)

# Not "make -C $(KDIR) M=... clean": kbuild's clean deletes every *.ko.* and
# *.[aios] below M, build/ included (Debian's modules among them).
KBUILD_JUNK := -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
	-o -name '.*.cmd' -o -name '.*.d' -o -name '*.dwo' -o -name '.*.tmp' \
	-o -name Module.symvers -o -name modules.order

clean:
	find $(MODDIR) \( -path $(BUILD) -o -name .git \) -prune -o \
		-type f \( $(KBUILD_JUNK) \) -print0 | xargs -0r rm -f
	rm -rf $(SELFTESTS_OUT) $(HOST_OUT) $(USER_OUT) $(VMDIR)

distclean: clean
	rm -rf $(BUILD)
