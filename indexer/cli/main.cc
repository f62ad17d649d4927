#include "cli.h"

int main(int argc, char** argv) {
  return sagasu::indexer_cli::run(argc, argv);
}
