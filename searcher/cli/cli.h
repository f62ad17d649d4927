// Command-line front end of the searcher.
#pragma once

namespace sagasu::searcher_cli {

/// Runs the searcher with argv; returns the exit status (0 hits, 1 none, 2 error).
int run(int argc, char** argv);

}  // namespace sagasu::searcher_cli
