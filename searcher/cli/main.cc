#include "cli.h"

int main(int argc, char** argv) {
  return sagasu::searcher_cli::run(argc, argv);
}
