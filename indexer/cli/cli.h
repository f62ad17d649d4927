// Command-line front end of the indexer.
#pragma once

namespace sagasu::indexer_cli {

/// Runs the indexer with argv; returns the process exit status.
int run(int argc, char** argv);

}  // namespace sagasu::indexer_cli
