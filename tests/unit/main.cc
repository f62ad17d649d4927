#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char* argv[]) {
  // Indexes built by the tests read no dictionary of the machine's (the
  // bridge tests name their own): the same results on every machine.
  setenv("SAGASU_EDICT", "", 1);
  setenv("SAGASU_IPADIC", "", 1);
  return Catch::Session().run(argc, argv);
}
