// BOTS fft: one-dimensional complex FFT of size 2^k by recursive radix-2
// decimation in time (after the Cilk FFT that BOTS uses).  The two half-size
// transforms are tasks, and so are the pieces of the butterfly loop that
// combines them, split recursively until they are small.
#include <bench/kernel.hpp>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace {

using Complex = std::complex<double>;

constexpr std::size_t sequential_size = 512;  // transforms this small run sequentially
constexpr std::size_t butterfly_grain = 2048; // butterfly loops this short run in one task

struct Twiddles {
  std::size_t size;           // the full transform size N
  std::vector<Complex> table; // exp(-2 pi i k / N), k < N/2
  explicit Twiddles(std::size_t n) : size(n), table(n / 2) {
    for (std::size_t k = 0; k < n / 2; ++k)
      table[k] = std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n));
  }
  // exp(-2 pi i k / n) for a sub-transform of size n
  Complex operator()(std::size_t k, std::size_t n) const { return table[k * (size / n)]; }
};

// out[k] and out[k + n/2] from the half transforms, for k in [first, last).
void butterflies(Complex* out, std::size_t n, std::size_t first, std::size_t last, const Twiddles& w) {
  const std::size_t half = n / 2;
  for (std::size_t k = first; k < last; ++k) {
    const Complex t = w(k, n) * out[k + half];
    out[k + half] = out[k] - t;
    out[k] = out[k] + t;
  }
}

void butterflies_tasks(Complex* out, std::size_t n, std::size_t first, std::size_t last, const Twiddles& w) {
  if (last - first <= butterfly_grain) {
    butterflies(out, n, first, last, w);
    return;
  }
  const std::size_t middle = first + (last - first) / 2;
#pragma omp task firstprivate(out, n, first, middle) shared(w)
  butterflies_tasks(out, n, first, middle, w);
#pragma omp task firstprivate(out, n, middle, last) shared(w)
  butterflies_tasks(out, n, middle, last, w);
#pragma omp taskwait
}

// out[0, n) = DFT of in[0], in[stride], ..., in[(n-1) stride]
void fft_sequential(const Complex* in, Complex* out, std::size_t n, std::size_t stride, const Twiddles& w) {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  fft_sequential(in, out, n / 2, 2 * stride, w);
  fft_sequential(in + stride, out + n / 2, n / 2, 2 * stride, w);
  butterflies(out, n, 0, n / 2, w);
}

void fft_tasks(const Complex* in, Complex* out, std::size_t n, std::size_t stride, const Twiddles& w) {
  if (n <= sequential_size) {
    fft_sequential(in, out, n, stride, w);
    return;
  }
  const Complex* odd = in + stride;
  Complex* upper = out + n / 2;
#pragma omp task firstprivate(in, out, n, stride) shared(w)
  fft_tasks(in, out, n / 2, 2 * stride, w);
#pragma omp task firstprivate(odd, upper, n, stride) shared(w)
  fft_tasks(odd, upper, n / 2, 2 * stride, w);
#pragma omp taskwait
  butterflies_tasks(out, n, 0, n / 2, w);
}

// A few output bins computed directly from the definition, independent of the FFT.
bool matches_direct_dft(const std::vector<Complex>& in, const std::vector<Complex>& out) {
  const std::size_t n = in.size();
  for (const std::size_t bin : {std::size_t{0}, std::size_t{1}, n / 3, n - 1}) {
    Complex sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      const double angle = -2.0 * std::numbers::pi * static_cast<double>((bin * j) % n) / static_cast<double>(n);
      sum += in[j] * std::polar(1.0, angle);
    }
    if (!(std::abs(sum - out[bin]) <= 1e-6 * (1.0 + std::abs(sum)))) return false;
  }
  return true;
}

bench::Outcome run(const bench::Options& options) {
  const std::size_t n = std::size_t{1} << bench::pick(options.size, 14, 20, 22);
  std::vector<Complex> input(n);
  bench::Rng rng(2718);
  for (Complex& x : input) x = Complex(rng.uniform() - 0.5, rng.uniform() - 0.5);
  const Twiddles twiddles(n);
  std::vector<Complex> output(n);

  const bench::Stopwatch stopwatch;
#pragma omp parallel
  {
#pragma omp single
    fft_tasks(input.data(), output.data(), n, 1, twiddles);
  }
  bench::Outcome outcome;
  outcome.time_s = stopwatch.elapsed_s();

  std::vector<Complex> reference(n);
  fft_sequential(input.data(), reference.data(), n, 1, twiddles);
  // Same operations in the same order, but allow for differently contracted multiply-adds.
  bool same_as_sequential = true;
  for (std::size_t k = 0; k < n; ++k)
    if (!(std::abs(output[k] - reference[k]) <= 1e-9 * (1.0 + std::abs(reference[k])))) same_as_sequential = false;
  outcome.verified = same_as_sequential && matches_direct_dft(input, output);
  Complex sum = 0.0;
  for (const Complex& x : output) sum += x;
  outcome.checksum = bench::float_checksum(std::abs(sum)) + "/" + bench::float_checksum(std::abs(output[n / 2]));
  return outcome;
}

} // namespace

int main(int argc, char** argv) {
  const bench::KernelSpec spec{
      .name = "fft",
      .summary = "BOTS fft: recursive radix-2 complex FFT, tasks for the half transforms and the butterfly "
                 "loops; verified against the sequential FFT and a direct DFT of a few bins.",
      .variants = {"default"},
      .sizes_help = "n = 2^14|2^20|2^22 complex values",
  };
  return bench::run_kernel(spec, argc, argv, run);
}
