# SPDX-License-Identifier: Apache-2.0
#
# avrogen.mk: GNU Make rules that run avrogen on annotated headers, the Make
# counterpart of CMake's avro_generate(). Installed with avrogen; pkg-config
# names it (`pkg-config --variable=makefile avrogen`) and the avrogen it runs
# (`--variable=avrogen`).
#
#   AVROGEN_BASE := include          # where the annotated headers are (default .)
#   AVROGEN_OUT  := gen              # where the generated files go (default avrogen-out)
#   AVROGEN_CLANG_ARGS := -Iinclude  # how the headers compile (-I, -D, -std)
#   include $(shell pkg-config --variable=makefile avrogen)
#
#   gateway: main.o gen/telemetry.avro.o
#           $(CC) -o $@ $^ $(shell pkg-config --libs avrogen)
#   main.o gen/telemetry.avro.o: CPPFLAGS += -Iinclude -Igen $(shell pkg-config --cflags avrogen)
#   main.o: gen/telemetry.avro.h
#
# For AVROGEN_BASE/<path>.h the rules write AVROGEN_OUT/<path>.avro.h and
# <path>.avro.c (which include the header as "<path>.h", so compile them with
# -I$(AVROGEN_BASE)), the derived .avsc files and <path>.avsc.list, the list of
# them. That list is the rule's real target: avrogen rewrites it on every run
# but leaves a .avro.c or .avro.h whose bytes did not change untouched, so
# nothing recompiles needlessly and a header edit that changes no output (a
# comment) reruns avrogen once, not on every later make. avrogen's depfile
# (<path>.avsc.d) names every header it read, so an edit to any of them
# regenerates. The rules are safe under make -j: one avrogen run per header.
#
# Set the variables before the include line: Make reads rules as it meets them.

AVROGEN ?= avrogen
AVROGEN_BASE ?= .
AVROGEN_OUT ?= avrogen-out
AVROGEN_CLANG_ARGS ?=
AVROGEN_FLAGS ?=

# One avrogen run for the header of stem $*, writing the list $(1).
avrogen_run = mkdir -p $(dir $(1)) && $(AVROGEN) generate $(AVROGEN_BASE)/$*.h -o $(dir $(1)) \
    --include-as $*.h --manifest $(1) --depfile $(AVROGEN_OUT)/$*.avsc.d $(AVROGEN_FLAGS) \
    -- $(AVROGEN_CLANG_ARGS)

# The list of schemas stands for the run (see above).
$(AVROGEN_OUT)/%.avsc.list: $(AVROGEN_BASE)/%.h
	$(call avrogen_run,$@)

# The code comes with the list: no second run for it, unless a generated file
# was deleted by hand while its list stayed (then that run puts it back).
$(AVROGEN_OUT)/%.avro.c: $(AVROGEN_OUT)/%.avsc.list
	@test -f $@ || { $(call avrogen_run,$<); }
$(AVROGEN_OUT)/%.avro.h: $(AVROGEN_OUT)/%.avsc.list
	@test -f $@ || { $(call avrogen_run,$<); }

# Keep the generated files when make is interrupted or they are intermediate.
.PRECIOUS: $(AVROGEN_OUT)/%.avsc.list $(AVROGEN_OUT)/%.avro.c $(AVROGEN_OUT)/%.avro.h

# The depfiles of earlier runs. Their rules must not become the makefile's
# default goal, which stays what it was (or the next target defined).
avrogen_default_goal := $(.DEFAULT_GOAL)
-include $(shell find $(AVROGEN_OUT) -name '*.avsc.d' 2>/dev/null)
.DEFAULT_GOAL := $(avrogen_default_goal)
