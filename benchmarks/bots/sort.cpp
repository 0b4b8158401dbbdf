// BOTS sort (Cilksort): a parallel merge sort.  The array is cut into four
// quarters sorted by four tasks, then merged pairwise by a parallel merge that
// splits the larger run at its middle, finds the matching split point in the
// other run by binary search and merges the two halves in two tasks.  Below
// fixed sizes the sort and the merge are sequential.
#include <bench/kernel.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using Element = std::int64_t;

constexpr std::size_t sort_cutoff = 2048;  // below: sequential sort
constexpr std::size_t merge_cutoff = 2048; // below: sequential merge

// Merges the sorted runs [first1, last1) and [first2, last2) into dest.
void merge_tasks(const Element* first1, const Element* last1, const Element* first2, const Element* last2,
                 Element* dest) {
  if (last1 - first1 < last2 - first2) {
    std::swap(first1, first2);
    std::swap(last1, last2);
  }
  const auto total = static_cast<std::size_t>((last1 - first1) + (last2 - first2));
  if (total <= merge_cutoff || first2 == last2) {
    std::merge(first1, last1, first2, last2, dest);
    return;
  }
  // Split the longer run in the middle and the shorter one where its elements
  // stop being smaller than that middle element.
  const Element* split1 = first1 + (last1 - first1) / 2;
  const Element* split2 = std::lower_bound(first2, last2, *split1);
  Element* dest_split = dest + (split1 - first1) + (split2 - first2);
#pragma omp task firstprivate(first1, split1, first2, split2, dest)
  merge_tasks(first1, split1, first2, split2, dest);
#pragma omp task firstprivate(split1, last1, split2, last2, dest_split)
  merge_tasks(split1, last1, split2, last2, dest_split);
#pragma omp taskwait
}

// Sorts data[0, size) using tmp[0, size) as scratch space.
void sort_tasks(Element* data, Element* tmp, std::size_t size) {
  if (size < sort_cutoff) {
    std::sort(data, data + size);
    return;
  }
  const std::size_t quarter = size / 4;
  Element* a = data;
  Element* b = a + quarter;
  Element* c = b + quarter;
  Element* d = c + quarter;
  Element* end = data + size;
  Element* tmp_a = tmp;
  Element* tmp_b = tmp_a + quarter;
  Element* tmp_c = tmp_b + quarter;
  Element* tmp_d = tmp_c + quarter;

#pragma omp task firstprivate(a, tmp_a, quarter)
  sort_tasks(a, tmp_a, quarter);
#pragma omp task firstprivate(b, tmp_b, quarter)
  sort_tasks(b, tmp_b, quarter);
#pragma omp task firstprivate(c, tmp_c, quarter)
  sort_tasks(c, tmp_c, quarter);
#pragma omp task firstprivate(d, tmp_d, end)
  sort_tasks(d, tmp_d, static_cast<std::size_t>(end - d));
#pragma omp taskwait

#pragma omp task firstprivate(a, b, c, tmp_a)
  merge_tasks(a, b, b, c, tmp_a);
#pragma omp task firstprivate(c, d, end, tmp_c)
  merge_tasks(c, d, d, end, tmp_c);
#pragma omp taskwait

  merge_tasks(tmp_a, tmp_c, tmp_c, tmp + size, data);
}

// Order-independent fingerprint of a multiset, to check that sorting only permuted the input.
struct Fingerprint {
  std::uint64_t sum = 0;
  std::uint64_t sum_of_squares = 0;
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint fingerprint(const std::vector<Element>& values) {
  Fingerprint result;
  for (const Element v : values) {
    const auto u = static_cast<std::uint64_t>(v);
    result.sum += u;
    result.sum_of_squares += u * u;
  }
  return result;
}

bench::Outcome run(const bench::Options& options) {
  const std::size_t size = bench::pick<std::size_t>(options.size, 1 << 16, 1 << 21, 1 << 24);
  std::vector<Element> data(size);
  bench::Rng rng(20260101);
  for (Element& value : data) value = static_cast<Element>(rng.next() >> 1);
  const Fingerprint input = fingerprint(data);
  std::vector<Element> scratch(size);

  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    sort_tasks(data.data(), scratch.data(), size);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();
  outcome.verified = std::is_sorted(data.begin(), data.end()) && fingerprint(data) == input;
  std::uint64_t positional_hash = 0;
  for (std::size_t i = 0; i < size; ++i) positional_hash += static_cast<std::uint64_t>(data[i]) * (i + 1);
  outcome.checksum = std::to_string(positional_hash);
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "sort",
      .summary = "BOTS sort (Cilksort): parallel merge sort of random 64-bit integers; verified by order and "
                 "multiset fingerprint.",
      .variants = {"default"},
      .sizes_help = "elements = 2^16|2^21|2^24",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
