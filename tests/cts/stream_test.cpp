// Streams (submission order, several streams, several threads), events and
// recorded sequences.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "cts.hpp"

namespace porta::test {
namespace {

namespace k = kernels;

PORTA_CTS_SUITE(Streams);
PORTA_CTS_SUITE(Events);
PORTA_CTS_SUITE(Sequences);

// Every kind of operation queued without a sync in between: each sees the
// effect of the ones before it.
TEST_P(Streams, OperationsRunInSubmissionOrder) {
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 5000;
  std::vector<uint32_t> in(n), out(n, 0), middle(n, 0);
  for (uint32_t i = 0; i < n; ++i) in[i] = i;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  write(a, in.data(), n * 4);
  dispatch(inc, (n + 63) / 64, {a}, IncrementPush{n, 10, 0});
  ASSERT_EQ(api().stream_copy(stream, a, 0, b, 0, n * 4), PORTA_SUCCESS) << error();
  read(b, middle.data(), n * 4);
  dispatch(inc, (n + 63) / 64, {b}, IncrementPush{n, 100, 0});
  ASSERT_EQ(api().stream_fill(stream, b, 0, 400, 7), PORTA_SUCCESS) << error();
  dispatch(inc, (n + 63) / 64, {b}, IncrementPush{n, 1000, 0});
  read(b, out.data(), n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(middle[i], i + 10) << i;
    ASSERT_EQ(out[i], i < 100 ? 1007u : i + 1110u) << i;
  }
  // A sync with nothing queued.
  sync();
}

// Two streams of one device, used in turn from one thread: each keeps its
// own order, and work synced on one is seen by the other.
TEST_P(Streams, SeveralStreamsOfOneDevice) {
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  porta_plugin_stream second = new_stream();
  ASSERT_NE(second, nullptr);
  const uint32_t n = 4096;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, a, 0, n * 4, 1), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_fill(second, b, 0, n * 4, 2), PORTA_SUCCESS) << error();
  for (int round = 0; round < 10; ++round) {
    dispatch(inc, n / 64, {a}, IncrementPush{n, 1, 0}, stream);
    dispatch(inc, n / 64, {b}, IncrementPush{n, 3, 0}, second);
  }
  sync(stream);
  sync(second);
  // The second stream reads what the first one wrote.
  std::vector<uint32_t> got_a(n), got_b(n);
  read(a, got_a.data(), n * 4, 0, second);
  read(b, got_b.data(), n * 4, 0, stream);
  sync(second);
  sync(stream);
  ASSERT_TRUE(every_word_is(got_a, 11u));
  ASSERT_TRUE(every_word_is(got_b, 32u));
}

// One kernel dispatched from two threads, each with its own stream and
// buffer: kernel arguments are per dispatch, never shared between threads.
TEST_P(Streams, TwoThreadsDispatchOneKernelOnTheirOwnStreams) {
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 10000;
  auto work = [&](uint32_t add, std::vector<uint32_t>* out, porta_status* status, std::string* message) {
    porta_plugin_stream s = nullptr;
    porta_plugin_buffer b = nullptr;
    *status = api().stream_create(device, &s);
    if (*status == PORTA_SUCCESS) *status = api().buffer_create(device, n * 4, &b);
    if (*status == PORTA_SUCCESS) *status = api().stream_fill(s, b, 0, n * 4, 0);
    for (int i = 0; i < 200 && *status == PORTA_SUCCESS; ++i) {
      IncrementPush push{n, add, 0};
      const uint32_t groups[3] = {(n + 63) / 64, 1, 1};
      const porta_plugin_binding binding{b, 0, n * 4};
      *status = api().stream_dispatch(s, inc, groups, &binding, 1, &push, sizeof push);
      if (i % 50 == 49 && *status == PORTA_SUCCESS) *status = api().stream_sync(s);
    }
    out->assign(n, 0);
    if (*status == PORTA_SUCCESS) *status = api().stream_read(s, b, 0, out->data(), n * 4);
    if (*status == PORTA_SUCCESS) *status = api().stream_sync(s);
    if (*status != PORTA_SUCCESS) *message = error();
    if (s) api().stream_destroy(s);
    if (b) api().buffer_destroy(b);
  };
  std::vector<uint32_t> out1, out2;
  porta_status s1 = PORTA_ERROR_INTERNAL, s2 = PORTA_ERROR_INTERNAL;
  std::string m1, m2;
  std::thread t1(work, 1u, &out1, &s1, &m1), t2(work, 7u, &out2, &s2, &m2);
  t1.join();
  t2.join();
  ASSERT_EQ(s1, PORTA_SUCCESS) << m1;
  ASSERT_EQ(s2, PORTA_SUCCESS) << m2;
  ASSERT_TRUE(every_word_is(out1, 200u));
  ASSERT_TRUE(every_word_is(out2, 1400u));
}

// Elapsed times between events are >= 0, positive across real work, and
// grow along the stream.
TEST_P(Events, ElapsedTimeIsPositiveAndMonotonic) {
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 1 << 16;
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, b, 0, n * 4, 0), PORTA_SUCCESS) << error();
  porta_plugin_event e[3] = {};
  ASSERT_EQ(api().event_record(stream, &e[0]), PORTA_SUCCESS) << error();
  for (int i = 0; i < 5; ++i) dispatch(inc, n / 64, {b}, IncrementPush{n, 1, 100});
  ASSERT_EQ(api().event_record(stream, &e[1]), PORTA_SUCCESS) << error();
  // Transfers are timed as well as dispatches.
  porta_plugin_buffer big = buffer(16 << 20);
  ASSERT_EQ(api().stream_fill(stream, big, 0, 16 << 20, 7), PORTA_SUCCESS) << error();
  for (int i = 0; i < 5; ++i) dispatch(inc, n / 64, {b}, IncrementPush{n, 1, 100});
  ASSERT_EQ(api().event_record(stream, &e[2]), PORTA_SUCCESS) << error();
  sync();
  double first = -1, second = -1, both = -1;
  ASSERT_EQ(api().event_elapsed_ms(e[0], e[1], &first), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().event_elapsed_ms(e[1], e[2], &second), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().event_elapsed_ms(e[0], e[2], &both), PORTA_SUCCESS) << error();
  EXPECT_GT(first, 0.0);
  EXPECT_GT(second, 0.0);
  EXPECT_GE(both, first);
  EXPECT_GE(both, second);
  EXPECT_LT(both, 60000.0);
  std::printf("10 dispatches over %u elements and a 16 MiB fill: %.3f ms (%.3f + %.3f)\n", n, both, first,
              second);
  for (porta_plugin_event event : e) api().event_destroy(event);
}

// Two events with nothing between them.
TEST_P(Events, BackToBackEventsGiveZeroOrMore) {
  porta_plugin_event a = nullptr, b = nullptr;
  ASSERT_EQ(api().event_record(stream, &a), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().event_record(stream, &b), PORTA_SUCCESS) << error();
  sync();
  double ms = -1;
  ASSERT_EQ(api().event_elapsed_ms(a, b, &ms), PORTA_SUCCESS) << error();
  EXPECT_GE(ms, 0.0);
  EXPECT_LT(ms, 60000.0);
  api().event_destroy(a);
  api().event_destroy(b);
}

// Skips, saying why, where the plugin leaves an optional entry to libporta.
#define REQUIRE_ENTRY(entry, why) \
  if (!api().entry) GTEST_SKIP() << api().name << why
#define REQUIRE_STREAM_WAIT() \
  REQUIRE_ENTRY(stream_wait_event, " has no stream_wait_event (libporta waits for the event on the host)")
#define REQUIRE_SEQUENCES()          \
  REQUIRE_ENTRY(stream_begin_record, \
                " records no sequences of its own (libporta records and replays the calls)")

// Stream A runs long kernels on a buffer and records an event; stream B waits
// for it and copies the buffer: B's copy sees all of A's work, though nothing
// syncs A first. Then the other way round, with B's event destroyed at once
// after A's wait (the wait stays).
TEST_P(Events, AnotherStreamWaitsForAnEvent) {
  REQUIRE_STREAM_WAIT();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  porta_plugin_stream second = new_stream();
  ASSERT_NE(second, nullptr);
  const uint32_t n = 1 << 14;
  porta_plugin_buffer a = buffer(n * 4), copy = buffer(n * 4), back = buffer(n * 4);
  std::vector<uint32_t> got(n), got_back(n);
  for (uint32_t round = 1; round <= 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_EQ(api().stream_fill(stream, a, 0, n * 4, 0), PORTA_SUCCESS) << error();
    // Busy work, so that A is still running when B is given its copy.
    for (uint32_t i = 0; i < 4; ++i) dispatch(inc, n / 64, {a}, IncrementPush{n, round, 2000});
    porta_plugin_event done = nullptr;
    ASSERT_EQ(api().event_record(stream, &done), PORTA_SUCCESS) << error();
    ASSERT_EQ(api().stream_wait_event(second, done), PORTA_SUCCESS) << error();
    ASSERT_EQ(api().stream_copy(second, a, 0, copy, 0, n * 4), PORTA_SUCCESS) << error();
    dispatch(inc, n / 64, {copy}, IncrementPush{n, 1, 0}, second);
    porta_plugin_event copied = nullptr;
    ASSERT_EQ(api().event_record(second, &copied), PORTA_SUCCESS) << error();
    ASSERT_EQ(api().stream_wait_event(stream, copied), PORTA_SUCCESS) << error();
    api().event_destroy(copied);
    ASSERT_EQ(api().stream_copy(stream, copy, 0, back, 0, n * 4), PORTA_SUCCESS) << error();
    read(copy, got.data(), n * 4, 0, second);
    read(back, got_back.data(), n * 4, 0, stream);
    sync(second);
    sync(stream);
    api().event_destroy(done);
    ASSERT_TRUE(every_word_is(got, 4 * round + 1));
    ASSERT_TRUE(every_word_is(got_back, 4 * round + 1));
  }
}

// A stream that waits for an event and then only reads on the host: its sync
// (and the read) still come after the event's work.
TEST_P(Events, ReadAfterAWaitSeesTheEventsWork) {
  REQUIRE_STREAM_WAIT();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  porta_plugin_stream second = new_stream();
  ASSERT_NE(second, nullptr);
  const uint32_t n = 1 << 14;
  porta_plugin_buffer a = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, a, 0, n * 4, 5), PORTA_SUCCESS) << error();
  for (uint32_t i = 0; i < 4; ++i) dispatch(inc, n / 64, {a}, IncrementPush{n, 1, 2000});
  porta_plugin_event done = nullptr;
  ASSERT_EQ(api().event_record(stream, &done), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_wait_event(second, done), PORTA_SUCCESS) << error();
  std::vector<uint32_t> got(n);
  read(a, got.data(), n * 4, 0, second);
  sync(second);
  ASSERT_TRUE(every_word_is(got, 9u));
  sync(stream);
  api().event_destroy(done);
}

// Two threads hand buffers to each other through events alone, as an
// uploader and a compute stream do: the uploader writes slot r % 2 once the
// compute stream's event says round r - 2 has used it; the compute stream
// waits for the upload's event, copies the slot, adds 1000 (with busy work)
// and reads the first word. No stream is synced until the end.
TEST_P(Events, TwoThreadsHandOverThroughEvents) {
  REQUIRE_STREAM_WAIT();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  porta_plugin_stream upload = new_stream();
  ASSERT_NE(upload, nullptr);
  const uint32_t n = 1 << 12, rounds = 12;
  porta_plugin_buffer slots[2] = {buffer(n * 4), buffer(n * 4)}, result = buffer(n * 4);
  std::vector<std::vector<uint32_t>> host(rounds);
  for (uint32_t r = 0; r < rounds; ++r) host[r].assign(n, r + 1);
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<porta_plugin_event> uploaded(rounds, nullptr), used(rounds, nullptr);
  bool stop = false;  // one side failed
  std::string upload_error;
  std::thread uploader([&] {
    for (uint32_t r = 0; r < rounds; ++r) {
      porta_status status = PORTA_SUCCESS;
      if (r >= 2) {
        porta_plugin_event free_slot = nullptr;
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] { return stop || used[r - 2]; });
          free_slot = used[r - 2];
        }
        if (!free_slot) return;
        status = api().stream_wait_event(upload, free_slot);
      }
      if (status == PORTA_SUCCESS)
        status = api().stream_write(upload, slots[r % 2], 0, host[r].data(), n * 4);
      porta_plugin_event e = nullptr;
      if (status == PORTA_SUCCESS) status = api().event_record(upload, &e);
      std::lock_guard<std::mutex> lock(mutex);
      if (status != PORTA_SUCCESS) {
        upload_error = error();
        stop = true;
      }
      uploaded[r] = e;
      changed.notify_all();
      if (stop) return;
    }
  });
  std::string compute_error;
  std::vector<uint32_t> seen(rounds, 0);
  for (uint32_t r = 0; r < rounds; ++r) {
    porta_plugin_event e = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return stop || uploaded[r]; });
      e = uploaded[r];
    }
    if (!e) break;
    porta_status status = api().stream_wait_event(stream, e);
    if (status == PORTA_SUCCESS) status = api().stream_copy(stream, slots[r % 2], 0, result, 0, n * 4);
    if (status == PORTA_SUCCESS) dispatch(inc, n / 64, {result}, IncrementPush{n, 1000, 500});
    if (status == PORTA_SUCCESS) status = api().stream_read(stream, result, 0, &seen[r], 4);
    porta_plugin_event u = nullptr;
    if (status == PORTA_SUCCESS) status = api().event_record(stream, &u);
    std::lock_guard<std::mutex> lock(mutex);
    if (status != PORTA_SUCCESS) {
      compute_error = error();
      stop = true;
    }
    used[r] = u;
    changed.notify_all();
    if (stop) break;
  }
  uploader.join();
  sync(upload);
  sync();
  for (auto* list : {&uploaded, &used})
    for (porta_plugin_event e : *list)
      if (e) api().event_destroy(e);
  ASSERT_EQ(upload_error, "");
  ASSERT_EQ(compute_error, "");
  for (uint32_t r = 0; r < rounds; ++r) EXPECT_EQ(seen[r], r + 1 + 1000) << "round " << r;
}

// Recording runs nothing; the recording keeps its own copy of the push
// constants; each replay runs the whole sequence again.
TEST_P(Sequences, RecordOnceReplayManyTimes) {
  REQUIRE_SEQUENCES();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 4096;
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, b, 0, n * 4, 5), PORTA_SUCCESS) << error();
  sync();
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  IncrementPush push{n, 1, 0};
  dispatch(inc, n / 64, {b}, push);
  push.add = 2;
  dispatch(inc, n / 64, {b}, push);
  push.add = 1000000;  // the recording keeps the values it was given
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  std::vector<uint32_t> out(n, 0);
  read(b, out.data(), n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 5u) << "recording must not execute: " << i;
  for (int r = 0; r < 1000; ++r) ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << error();
  read(b, out.data(), n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 5u + 3000u) << i;
  api().sequence_destroy(seq);
}

// Writes and reads recorded in a sequence use the host memory again at every
// replay: what the host put there last, and where the host reads next.
TEST_P(Sequences, ReplayUsesTheHostMemoryEachTime) {
  REQUIRE_SEQUENCES();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 32 * 40 + 3;
  porta_plugin_buffer y = buffer(n * 4), copy = buffer(n * 4);
  std::vector<uint32_t> in(n), out(n);
  uint32_t marker = 0;
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  write(y, in.data(), n * 4);
  dispatch(inc, (n + 63) / 64, {y}, IncrementPush{n, 10, 0});
  ASSERT_EQ(api().stream_copy(stream, y, 0, copy, 0, n * 4), PORTA_SUCCESS) << error();
  write(copy, &marker, 4);
  read(copy, out.data(), n * 4);
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  for (uint32_t round = 1; round <= 1000; ++round) {
    for (uint32_t i = 0; i < n; ++i) in[i] = round * 1000 + i;
    marker = 1000000 + round;
    ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << error();
    sync();
    ASSERT_EQ(out[0], marker) << "round " << round;
    for (uint32_t i = 1; i < n; ++i)
      ASSERT_EQ(out[i], round * 1000 + i + 10) << "round " << round << " i " << i;
  }
  api().sequence_destroy(seq);
}

// A replayed run of dispatches (one command buffer where the backend makes
// one: cl_khr_command_buffer, a Vulkan command buffer, a CUDA graph) ends
// where the same dispatches queued one by one do: several kernels' worth of
// push constants, whole buffers and ranges of them, in order.
TEST_P(Sequences, ReplayedDispatchesEndAsPlainOnes) {
  REQUIRE_SEQUENCES();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 2048;
  const uint64_t align = std::max<uint64_t>(info.binding_offset_alignment, 4);
  const uint64_t half = (n / 2 * 4 + align - 1) / align * align;  // a range: the upper part of a buffer
  const uint32_t upper = uint32_t((n * 4 - half) / 4);
  std::vector<uint32_t> start(n);
  for (uint32_t i = 0; i < n; ++i) start[i] = i * 3;
  porta_plugin_buffer recorded[2] = {buffer(n * 4), buffer(n * 4)}, plain[2] = {buffer(n * 4), buffer(n * 4)};
  for (porta_plugin_buffer b : {recorded[0], recorded[1], plain[0], plain[1]}) write(b, start.data(), n * 4);
  sync();
  auto queue = [&](porta_plugin_buffer* b) {
    dispatch(inc, n / 64, {b[0]}, IncrementPush{n, 1, 0});
    dispatch(inc, n / 64, {b[1]}, IncrementPush{n, 10, 0});
    const IncrementPush push{upper, 100, 0};
    dispatch_ranges(inc, (upper + 63) / 64, 1, 1, {{b[0], half, n * 4 - half}}, &push, sizeof push);
    dispatch(inc, n / 64, {b[0]}, IncrementPush{n, 1000, 3});
  };
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  queue(recorded);
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  for (int r = 0; r < 3; ++r) {
    ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << error();
    queue(plain);
  }
  std::vector<uint32_t> got(n), want(n);
  for (int b = 0; b < 2; ++b) {
    read(recorded[b], got.data(), n * 4);
    read(plain[b], want.data(), n * 4);
    sync();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], want[i]) << "buffer " << b << " element " << i;
    EXPECT_EQ(want[0], b ? 3u * 10u : 3u * 1001u) << "buffer " << b;
    EXPECT_EQ(want[n - 1], (n - 1) * 3 + (b ? 3u * 10u : 3u * 1101u)) << "buffer " << b;
  }
  api().sequence_destroy(seq);
}

// Two sequences recorded one after the other with the same kernel keep their
// own buffers and push constants, whatever ran last; a dispatch of that
// kernel between replays changes neither.
TEST_P(Sequences, EachSequenceKeepsItsOwnArguments) {
  REQUIRE_SEQUENCES();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 1024;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, a, 0, n * 4, 0), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_fill(stream, b, 0, n * 4, 0), PORTA_SUCCESS) << error();
  auto record = [&](porta_plugin_buffer target, uint32_t add) {
    porta_plugin_sequence seq = nullptr;
    EXPECT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
    dispatch(inc, n / 64, {target}, IncrementPush{n, add, 0});
    dispatch(inc, n / 64, {target}, IncrementPush{n, add, 0});
    EXPECT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
    return seq;
  };
  porta_plugin_sequence to_a = record(a, 1), to_b = record(b, 1000);
  ASSERT_NE(to_a, nullptr);
  ASSERT_NE(to_b, nullptr);
  ASSERT_EQ(api().stream_replay(stream, to_a), PORTA_SUCCESS) << error();  // a: 2
  ASSERT_EQ(api().stream_replay(stream, to_b), PORTA_SUCCESS) << error();  // b: 2000
  ASSERT_EQ(api().stream_replay(stream, to_a), PORTA_SUCCESS) << error();  // a: 4
  dispatch(inc, n / 64, {a}, IncrementPush{n, 50, 0});                     // a: 54
  ASSERT_EQ(api().stream_replay(stream, to_b), PORTA_SUCCESS) << error();  // b: 4000
  // Recorded again: the new sequence has its own arguments, the old ones keep theirs.
  porta_plugin_sequence again = record(b, 7);
  ASSERT_EQ(api().stream_replay(stream, to_a), PORTA_SUCCESS) << error();   // a: 56
  ASSERT_EQ(api().stream_replay(stream, again), PORTA_SUCCESS) << error();  // b: 4014
  std::vector<uint32_t> got_a(n), got_b(n);
  read(a, got_a.data(), n * 4);
  read(b, got_b.data(), n * 4);
  sync();
  EXPECT_TRUE(every_word_is(got_a, 56));
  EXPECT_TRUE(every_word_is(got_b, 4014));
  for (porta_plugin_sequence s : {to_a, to_b, again}) api().sequence_destroy(s);
}

// A sequence reads its buffers as they are when it runs: what a write, copy
// or fill queued between replays put there.
TEST_P(Sequences, ReplaySeesBuffersChangedBetweenReplays) {
  REQUIRE_SEQUENCES();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  const uint32_t n = 512;
  porta_plugin_buffer b = buffer(n * 4), source = buffer(n * 4);
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  dispatch(inc, n / 64, {b}, IncrementPush{n, 1, 0});
  dispatch(inc, n / 64, {b}, IncrementPush{n, 2, 0});
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  std::vector<uint32_t> in(n), out(n);
  for (uint32_t round = 0; round < 20; ++round) {
    switch (round % 3) {
      case 0:
        std::fill(in.begin(), in.end(), round * 100);
        write(b, in.data(), n * 4);
        break;
      case 1:
        std::fill(in.begin(), in.end(), round * 100);
        write(source, in.data(), n * 4);
        ASSERT_EQ(api().stream_copy(stream, source, 0, b, 0, n * 4), PORTA_SUCCESS) << error();
        break;
      default:
        ASSERT_EQ(api().stream_fill(stream, b, 0, n * 4, round * 100), PORTA_SUCCESS) << error();
    }
    ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << error();
    read(b, out.data(), n * 4);
    sync();
    ASSERT_TRUE(every_word_is(out, round * 100 + 3)) << "round " << round;
  }
  api().sequence_destroy(seq);
}

// Transfers between dispatches split a sequence's runs of dispatches; each
// part replays in order, on the stream that recorded it and on another.
TEST_P(Sequences, DispatchesAroundTransfersReplayInOrderOnAnyStream) {
  REQUIRE_SEQUENCES();
  porta_plugin_kernel inc = kernel(*glsl(k::kIncrement, "increment"));
  ASSERT_NE(inc, nullptr);
  porta_plugin_stream other = new_stream();
  ASSERT_NE(other, nullptr);
  const uint32_t n = 256;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  std::vector<uint32_t> in(n), middle(n), out(n);
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  write(a, in.data(), n * 4);
  dispatch(inc, n / 64, {a}, IncrementPush{n, 1, 0});
  dispatch(inc, n / 64, {a}, IncrementPush{n, 2, 0});
  read(a, middle.data(), n * 4);
  dispatch(inc, n / 64, {a}, IncrementPush{n, 4, 0});
  ASSERT_EQ(api().stream_copy(stream, a, 0, b, 0, n * 4), PORTA_SUCCESS) << error();
  dispatch(inc, n / 64, {b}, IncrementPush{n, 8, 0});
  dispatch(inc, n / 64, {b}, IncrementPush{n, 16, 0});
  read(b, out.data(), n * 4);
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  for (uint32_t round = 1; round <= 6; ++round) {
    porta_plugin_stream s = round % 2 ? stream : other;
    std::fill(in.begin(), in.end(), round * 1000);
    ASSERT_EQ(api().stream_replay(s, seq), PORTA_SUCCESS) << error();
    sync(s);
    ASSERT_TRUE(every_word_is(middle, round * 1000 + 3)) << "round " << round;
    ASSERT_TRUE(every_word_is(out, round * 1000 + 31)) << "round " << round;
  }
  api().sequence_destroy(seq);
}

}  // namespace
}  // namespace porta::test
