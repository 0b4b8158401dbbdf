// NPB IS: rank (counting-sort) a large array of small integer keys, ten
// times, using the bucketed algorithm of the NPB 3.3 OpenMP reference.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "common/npb.hpp"

namespace {

constexpr int kIterations = 10;  // MAX_ITERATIONS
constexpr int kTestKeys = 5;     // TEST_ARRAY_SIZE
constexpr std::uint64_t kSeed = 314159265;

struct ClassParameters {
  char name;
  int log2_keys;
  int log2_max_key;
  int log2_buckets;
  // Partial verification (IS reference): the rank of the key found at
  // test_index[i] must equal test_rank[i] shifted by a class-specific
  // function of the iteration.
  std::array<int, kTestKeys> test_index;
  std::array<int, kTestKeys> test_rank;
  int (*expected_rank_shift)(int test, int iteration);
};

constexpr std::array kClasses = {
    ClassParameters{'S', 16, 11, 9, {48427, 17148, 23627, 62548, 4431},
                    {0, 18, 346, 64917, 65463},
                    [](int test, int it) { return test <= 2 ? it : -it; }},
    ClassParameters{'W', 20, 16, 10, {357773, 934767, 875723, 898999, 404505},
                    {1249, 11698, 1039987, 1043896, 1048018},
                    [](int test, int it) { return test < 2 ? it - 2 : -it; }},
    ClassParameters{'A', 23, 19, 10, {2112377, 662041, 5336171, 3642833, 4250760},
                    {104, 17523, 123928, 8288932, 8388264},
                    [](int test, int it) { return test <= 2 ? it - 1 : -(it - 1); }},
};

class IntegerSort {
 public:
  explicit IntegerSort(const ClassParameters& p)
      : params_(p),
        num_keys_(1 << p.log2_keys),
        max_key_(1 << p.log2_max_key),
        num_buckets_(1 << p.log2_buckets),
        keys_(num_keys_),
        bucketed_keys_(num_keys_),
        key_ranks_(max_key_),
        bucket_end_(num_buckets_),
        bucket_sizes_(omp_get_max_threads(), std::vector<int>(num_buckets_)) {
    generate_keys();
  }

  // One ranking pass plus its partial verification. Returns the number of
  // test keys whose rank was right and adds their ranks to *rank_sum.
  int rank(int iteration, std::int64_t* rank_sum);

  // Sorts the keys with the ranks of the last pass and counts keys out of
  // order (zero when the ranking was right).
  int count_unsorted_after_full_sort();

 private:
  void generate_keys();

  const ClassParameters& params_;
  const int num_keys_;
  const int max_key_;
  const int num_buckets_;
  std::vector<int> keys_;
  std::vector<int> bucketed_keys_;            // key_buff2: keys grouped by bucket
  std::vector<int> key_ranks_;                // key_buff1: #keys <= k after rank()
  std::vector<int> bucket_end_;               // end of each bucket in bucketed_keys_
  std::vector<std::vector<int>> bucket_sizes_;  // per thread
};

// Key i is MAX_KEY/4 times the sum of four consecutive uniforms 4i+1..4i+4 of
// the stream; each thread jumps straight to its block of keys.
void IntegerSort::generate_keys() {
  const int n = num_keys_;
  int* keys = keys_.data();
  const double scale = max_key_ / 4;
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int per_thread = (n + threads - 1) / threads;
    const int first = std::min(n, per_thread * omp_get_thread_num());
    const int last = std::min(n, first + per_thread);
    npb::Randlc rng(kSeed);
    rng.skip(4 * static_cast<std::uint64_t>(first));
    for (int i = first; i < last; ++i) {
      double x = rng.next();
      x += rng.next();
      x += rng.next();
      x += rng.next();
      keys[i] = static_cast<int>(scale * x);
    }
  }
}

int IntegerSort::rank(int iteration, std::int64_t* rank_sum) {
  int* keys = keys_.data();
  int* bucketed = bucketed_keys_.data();
  int* ranks = key_ranks_.data();
  const int n = num_keys_;
  const int buckets = num_buckets_;
  const int shift = params_.log2_max_key - params_.log2_buckets;
  const int keys_per_bucket = 1 << shift;

  // The benchmark perturbs two keys per iteration so no pass can be skipped.
  keys[iteration] = iteration;
  keys[iteration + kIterations] = max_key_ - iteration;

  std::array<int, kTestKeys> test_keys{};
  for (int i = 0; i < kTestKeys; ++i) test_keys[i] = keys[params_.test_index[i]];

#pragma omp parallel
  {
    const int me = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    std::vector<int>& my_sizes = bucket_sizes_[me];
    std::fill(my_sizes.begin(), my_sizes.end(), 0);

#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) ++my_sizes[keys[i] >> shift];

    // Where this thread writes into each bucket: after all keys of earlier
    // buckets, and after the keys earlier threads put into the same bucket.
    std::vector<int> write_pos(buckets);
    int start = 0;
    for (int b = 0; b < buckets; ++b) {
      int before_me = 0;
      int bucket_total = 0;
      for (int t = 0; t < threads; ++t) {
        if (t < me) before_me += bucket_sizes_[t][b];
        bucket_total += bucket_sizes_[t][b];
      }
      write_pos[b] = start + before_me;
      start += bucket_total;
    }

    // Same static schedule as the counting loop, so each thread scatters
    // exactly the keys it counted.
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      const int k = keys[i];
      bucketed[write_pos[k >> shift]++] = k;
    }

#pragma omp single
    {
      int end = 0;
      for (int b = 0; b < buckets; ++b) {
        for (int t = 0; t < threads; ++t) end += bucket_sizes_[t][b];
        bucket_end_[b] = end;
      }
    }

    // Bucket sizes vary (the keys are roughly Gaussian), hence dynamic.
#pragma omp for schedule(dynamic)
    for (int b = 0; b < buckets; ++b) {
      const int first_key = b * keys_per_bucket;
      const int last_key = first_key + keys_per_bucket;
      for (int k = first_key; k < last_key; ++k) ranks[k] = 0;
      const int begin = b > 0 ? bucket_end_[b - 1] : 0;
      for (int i = begin; i < bucket_end_[b]; ++i) ++ranks[bucketed[i]];
      ranks[first_key] += begin;
      for (int k = first_key + 1; k < last_key; ++k) ranks[k] += ranks[k - 1];
    }
  }

  int passed = 0;
  for (int i = 0; i < kTestKeys; ++i) {
    const int k = test_keys[i];
    if (k <= 0 || k > n - 1) continue;
    const int key_rank = ranks[k - 1];
    *rank_sum += key_rank;
    if (key_rank == params_.test_rank[i] + params_.expected_rank_shift(i, iteration))
      ++passed;
    else
      fmt::print(" failed partial verification: iteration {}, test key {}\n", iteration, i);
  }
  return passed;
}

int IntegerSort::count_unsorted_after_full_sort() {
  int* keys = keys_.data();
  int* bucketed = bucketed_keys_.data();
  int* ranks = key_ranks_.data();
  const int n = num_keys_;
  const int buckets = num_buckets_;
  int unsorted = 0;
#pragma omp parallel
  {
    // ranks[k] is one past the last position of key k; fill downwards.
#pragma omp for schedule(dynamic)
    for (int b = 0; b < buckets; ++b) {
      const int begin = b > 0 ? bucket_end_[b - 1] : 0;
      for (int i = begin; i < bucket_end_[b]; ++i) keys[--ranks[bucketed[i]]] = bucketed[i];
    }

#pragma omp for reduction(+ : unsorted)
    for (int i = 1; i < n; ++i)
      if (keys[i - 1] > keys[i]) ++unsorted;
  }
  return unsorted;
}

}  // namespace

int main(int argc, char** argv) {
  const npb::RunConfig config = npb::parse_command_line(
      argc, argv, "is",
      "NPB IS: bucketed integer sort (ranking) of random keys.",
      npb::class_names(kClasses));
  const ClassParameters& params = npb::parameters_of_class(kClasses, config.problem_class);

  IntegerSort sort(params);
  std::int64_t rank_sum = 0;
  sort.rank(1, &rank_sum);  // untimed warm-up pass, as in NPB
  rank_sum = 0;

  const bench::Stopwatch stopwatch;
  int passed = 0;
  for (int it = 1; it <= kIterations; ++it) passed += sort.rank(it, &rank_sum);
  const double seconds = stopwatch.elapsed_s();

  const int unsorted = sort.count_unsorted_after_full_sort();
  const bool verified = passed == kTestKeys * kIterations && unsorted == 0;
  fmt::print("NPB IS class {}: 2^{} keys in [0, 2^{}), {} iterations\n", params.name,
             params.log2_keys, params.log2_max_key, kIterations);
  fmt::print(" partial verification: {} of {} test ranks right; keys out of order: {}\n", passed,
             kTestKeys * kIterations, unsorted);
  return npb::report("is", config, seconds, verified, static_cast<double>(rank_sum));
}
