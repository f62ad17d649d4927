// The indexer's one threading primitive: a loop over indexes run on several threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace sagasu {

/// Runs f(i, t) for every i in [0, n) on up to `jobs` threads, t being the
/// thread's number in [0, jobs); f must only touch what belongs to i (or to t).
/// The calling thread works too; when the system refuses a thread, the
/// threads running do the work.
template <class F>
void parallel_for(std::size_t n, unsigned jobs, F f) {
  if (jobs <= 1 || n < 2) {
    for (std::size_t i = 0; i < n; ++i) f(i, 0u);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  auto worker = [&](unsigned t) {
    for (std::size_t i = next++; i < n; i = next++) f(i, t);
  };
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, n));
  try {
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker, t);
  } catch (const std::system_error&) {
    // Fewer threads than asked for (a process limit): the ones running, and this one, do the work.
  }
  worker(0);
  for (auto& th : threads) th.join();
}

}  // namespace sagasu
