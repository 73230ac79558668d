// OMPEval's "Rand1" case on hands we give it: an array of 7 x uint8 hands, one thread.
//
// Built by benchmarks/ompeval.py against a checkout of zekyll/OMPEval (never vendored):
//   g++ -O3 -msse4.2 -std=c++11 -I<checkout> ompeval_rand1.cpp <checkout>/omp/HandEvaluator.cpp
// Usage: ompeval_rand1 HANDS_FILE ROUNDS VALUES_FILE
// Reads N hands (7 card ids each, 4 * rank + suit, deuce = rank 0: OMPEval's ids and ours),
// scores all of them ROUNDS times, printing each round's hands per second on its own line
// (per second of wall time, then per second of this thread's CPU time), then writes each
// hand's value (uint16, higher is better) to VALUES_FILE.
#include <omp/HandEvaluator.h>

#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s HANDS_FILE ROUNDS VALUES_FILE\n", argv[0]);
        return 2;
    }
    std::FILE* in = std::fopen(argv[1], "rb");
    if (!in) {
        std::perror(argv[1]);
        return 1;
    }
    std::vector<uint8_t> cards;
    uint8_t buffer[1 << 16];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, in)) > 0)
        cards.insert(cards.end(), buffer, buffer + got);
    std::fclose(in);
    size_t count = cards.size() / 7;
    int rounds = std::atoi(argv[2]);
    omp::HandEvaluator evaluator;
    std::vector<uint16_t> values(count);
    unsigned sum = 0;
    for (int round = 0; round < rounds; ++round) {
        timespec cpu_started, cpu_ended;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_started);
        auto started = std::chrono::steady_clock::now();
        for (size_t i = 0; i < count; ++i) {
            const uint8_t* c = &cards[7 * i];
            omp::Hand h = omp::Hand::empty();
            h += omp::Hand(c[0]);
            h += omp::Hand(c[1]);
            h += omp::Hand(c[2]);
            h += omp::Hand(c[3]);
            h += omp::Hand(c[4]);
            h += omp::Hand(c[5]);
            h += omp::Hand(c[6]);
            uint16_t value = evaluator.evaluate(h);
            values[i] = value;
            sum += value;
        }
        std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_ended);
        double cpu = (cpu_ended.tv_sec - cpu_started.tv_sec)
                     + 1e-9 * (cpu_ended.tv_nsec - cpu_started.tv_nsec);
        std::printf("%.1f %.1f\n", count / seconds.count(), count / cpu);
        std::fflush(stdout);
    }
    std::FILE* out = std::fopen(argv[3], "wb");
    if (!out || std::fwrite(values.data(), sizeof(uint16_t), count, out) != count) {
        std::perror(argv[3]);
        return 1;
    }
    std::fclose(out);
    std::fprintf(stderr, "checksum %u\n", sum);
    return 0;
}
