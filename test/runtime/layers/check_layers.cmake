# Every layer of the runtime compiles against its own include root
# (runtime/CMakeLists.txt): an include of a layer above it must not compile,
# one of a layer below it must.  Run as
#   cmake -DCXX=... -DLAYERS=<build>/runtime/layers -DINCLUDE=<src>/include -P check_layers.cmake
set(cases
  # layer     header                              compiles
  "writers   analyses/analyses_step.hpp          NO"
  "writers   core/measurement.hpp                NO"
  "writers   model/profile.hpp                   YES"
  "model     core/node.hpp                       NO"
  "core      analyses/profile_index.hpp          NO"
  "core      writers/json_writer.hpp             NO"
  "core      model/profile.hpp                   YES"
  "analyses  writers/text_writer.hpp             NO"
  "analyses  adapter/lifecycle.hpp               NO"
  "analyses  core/measurement.hpp                YES"
  "deadlock  adapter/lifecycle.hpp               NO"
  "deadlock  config/options.hpp                  NO"
  "deadlock  core/region_registry.hpp            YES"
  "adapter   deadlock/watch.hpp                  YES"
  "adapter   writers/text_writer.hpp             YES"
  "trace     core/thread_state.hpp               NO"
  "trace     model/profile.hpp                   YES"
  "core      trace/recorder.hpp                  NO"
  "adapter   trace/recorder.hpp                  YES"
  "writers   platform/kernel_io.hpp              YES"
  "config    platform/kernel_io.hpp              YES")
set(failures 0)
foreach(case IN LISTS cases)
  string(REGEX MATCHALL "[^ ]+" fields "${case}")
  list(GET fields 0 layer)
  list(GET fields 1 header)
  list(GET fields 2 expected)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/layer_probe.cpp "#include \"${header}\"\n")
  execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -I${LAYERS}/${layer} -I${INCLUDE}
                          ${CMAKE_CURRENT_BINARY_DIR}/layer_probe.cpp
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(status EQUAL 0)
    set(compiled YES)
  else()
    set(compiled NO)
  endif()
  if(NOT compiled STREQUAL expected)
    message(SEND_ERROR "layer ${layer} including ${header}: compiled=${compiled}, expected ${expected}")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} layer include check(s) failed")
endif()
