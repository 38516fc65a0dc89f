/* The C API end to end, in C: devices, buffers, a kernel with push constants,
 * streams, events, a recorded sequence, and the handle errors a binding from
 * another language must get instead of a crash, and porta_last_error() kept
 * per thread. Exits non-zero on failure. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "porta/porta.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define OK(call)                                                                                \
  do {                                                                                          \
    porta_status s_ = (call);                                                                   \
    if (s_ != PORTA_SUCCESS) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, porta_last_error()); \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

static void expect_status(porta_status got, porta_status want, const char* needle, int line) {
  if (got != want || !strstr(porta_last_error(), needle)) {
    fprintf(stderr, "line %d: got %s \"%s\", expected %s mentioning \"%s\"\n", line, porta_status_name(got),
            porta_last_error(), porta_status_name(want), needle);
    ++failures;
  }
}
#define EXPECT_STATUS(call, want, needle) expect_status((call), (want), (needle), __LINE__)

static const char* kSaxpy =
    "#version 450\n"
    "layout(local_size_x = 32) in;\n"
    "layout(binding = 0) readonly buffer X { float x[]; };\n"
    "layout(binding = 1) buffer Y { float y[]; };\n"
    "layout(push_constant) uniform P { float a; uint n; };\n"
    "void main() { uint i = gl_GlobalInvocationID.x; if (i < n) y[i] += a * x[i]; }\n";

/* porta_last_error() is per thread. Two threads fail in different ways and
 * succeed in turn, in lock step (a barrier between phases), so that each
 * check happens after the other thread's last call: with one message shared
 * between threads, every iteration would show the other thread's message or
 * lose its own. A binding that calls porta from a thread pool depends on this. */
enum { kErrorThreadIterations = 3000 };

typedef struct error_thread {
  int role; /* 0: null device to porta_buffer_create; 1: null stream to porta_stream_sync */
  porta_device dev;
  porta_stream stream; /* a stream belongs to one thread at a time: each has its own */
  pthread_barrier_t* step;
  int wrong; /* checks that found a message not this thread's own */
  char first_wrong[512];
} error_thread;

static void note_wrong(error_thread* t, const char* what, int iteration) {
  if (t->wrong++ == 0)
    snprintf(t->first_wrong, sizeof t->first_wrong, "%s in iteration %d; porta_last_error() is \"%s\"", what,
             iteration, porta_last_error());
}

static void* error_thread_main(void* arg) {
  error_thread* t = (error_thread*)arg;
  const char* own = t->role == 0 ? "porta_buffer_create: the device handle is null"
                                 : "porta_stream_sync: the stream handle is null";
  for (int i = 0; i < kErrorThreadIterations; ++i) {
    porta_buffer unused = NULL;
    const porta_status got = t->role == 0 ? porta_buffer_create(NULL, 16, &unused) : porta_stream_sync(NULL);
    if (got != PORTA_ERROR_INVALID_HANDLE) note_wrong(t, "the failing call did not fail", i);
    pthread_barrier_wait(t->step); /* both have failed */
    if (!strstr(porta_last_error(), own))
      note_wrong(t, "after both threads failed, not this thread's message", i);
    pthread_barrier_wait(t->step);
    /* One thread succeeds while the other's message stands; they take turns,
     * with a call the core answers alone and one that goes through the plugin. */
    const int succeeds = i % 2 == t->role;
    if (succeeds) {
      porta_device_info info;
      const porta_status ok =
          i % 4 < 2 ? porta_device_query_info(t->dev, &info) : porta_stream_sync(t->stream);
      if (ok != PORTA_SUCCESS) note_wrong(t, "the successful call failed", i);
    }
    pthread_barrier_wait(t->step); /* one has succeeded */
    if (succeeds && porta_last_error()[0] != '\0') note_wrong(t, "after this thread's success, a message", i);
    if (!succeeds && !strstr(porta_last_error(), own))
      note_wrong(t, "after the other thread's success, not this thread's message", i);
    pthread_barrier_wait(t->step);
  }
  return NULL;
}

static void check_last_error_is_per_thread(porta_device dev) {
  pthread_barrier_t step;
  pthread_barrier_init(&step, NULL, 2);
  error_thread threads[2];
  pthread_t ids[2];
  for (int i = 0; i < 2; ++i) {
    memset(&threads[i], 0, sizeof threads[i]);
    threads[i].role = i;
    threads[i].dev = dev;
    threads[i].step = &step;
    OK(porta_stream_create(dev, &threads[i].stream));
  }
  for (int i = 0; i < 2; ++i)
    if (pthread_create(&ids[i], NULL, error_thread_main, &threads[i]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      exit(1);
    }
  for (int i = 0; i < 2; ++i) {
    pthread_join(ids[i], NULL);
    porta_stream_destroy(threads[i].stream);
    if (threads[i].wrong) {
      fprintf(stderr, "thread %d: %d wrong results in %d iterations; the first: %s\n", i, threads[i].wrong,
              kErrorThreadIterations, threads[i].first_wrong);
      ++failures;
    }
  }
  pthread_barrier_destroy(&step);
}

/* porta_version() is the version the headers carry. */
static void check_version(void) {
  char expected[64];
  snprintf(expected, sizeof expected, "%d.%d.%d", PORTA_VERSION_MAJOR, PORTA_VERSION_MINOR,
           PORTA_VERSION_PATCH);
  CHECK(strcmp(porta_version(), PORTA_VERSION_STRING) == 0);
  CHECK(strcmp(porta_version(), expected) == 0);
  CHECK(PORTA_VERSION == PORTA_MAKE_VERSION(PORTA_VERSION_MAJOR, PORTA_VERSION_MINOR, PORTA_VERSION_PATCH));
}

/* Deprecated names still work and still name themselves in messages. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void check_old_names(porta_device dev, const porta_device_info* expected) {
  porta_device_info info;
  OK(porta_device_info_get(dev, &info));
  CHECK(strcmp(info.name, expected->name) == 0 && info.index == expected->index);
  EXPECT_STATUS(porta_device_info_get(dev, NULL), PORTA_ERROR_INVALID_ARGUMENT,
                "porta_device_info_get: info is null");
  EXPECT_STATUS(porta_device_info_get(NULL, &info), PORTA_ERROR_INVALID_HANDLE, "porta_device_info_get");
}
#pragma GCC diagnostic pop

int main(void) {
  const char* backend = getenv("PORTA_TEST_BACKEND");
  if (!backend || !*backend) backend = "cpu";

  check_version();

  CHECK(porta_backend_count() >= 1);
  CHECK(porta_device_count() >= 1);
  porta_device_info info;
  OK(porta_device_get_info(0, &info));
  CHECK(info.name[0] != '\0');

  porta_device dev = NULL;
  porta_status open_status = porta_device_open(backend, &dev);
  if (open_status == PORTA_ERROR_UNAVAILABLE) {
    printf("SKIP: backend %s is unavailable here: %s\n", backend, porta_last_error());
    return 77;
  }
  OK(open_status);
  OK(porta_device_query_info(dev, &info));
  check_old_names(dev, &info);
  /* The selector may name a device too ("opencl:1"): its backend part must match. */
  CHECK(strncmp(info.backend, backend, strlen(info.backend)) == 0 &&
        (backend[strlen(info.backend)] == '\0' || backend[strlen(info.backend)] == ':'));

  enum { N = 100 };
  float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  porta_buffer bx = NULL, by = NULL;
  OK(porta_buffer_create(dev, sizeof x, &bx));
  OK(porta_buffer_create(dev, sizeof y, &by));
  CHECK(porta_buffer_size(bx) == sizeof x);
  OK(porta_buffer_write(bx, 0, x, sizeof x));
  OK(porta_buffer_write(by, 0, y, sizeof y));

  porta_kernel k = NULL;
  OK(porta_kernel_create_glsl(dev, kSaxpy, strlen(kSaxpy), "saxpy", NULL, 0, &k));
  CHECK(porta_kernel_buffer_count(k) == 2);
  CHECK(porta_kernel_push_constant_size(k) == 8);
  uint32_t wg[3];
  porta_kernel_workgroup_size(k, wg);
  CHECK(wg[0] == 32 && wg[1] == 1 && wg[2] == 1);

  porta_stream s = NULL;
  OK(porta_stream_create(dev, &s));
  struct {
    float a;
    uint32_t n;
  } push = {2.0f, N};
  porta_buffer bufs[2] = {bx, by};
  uint32_t groups[3] = {(N + 31) / 32, 1, 1};
  porta_event e0 = NULL, e1 = NULL;
  OK(porta_event_record(s, &e0));
  OK(porta_stream_dispatch(s, k, groups, bufs, 2, &push, sizeof push));
  OK(porta_event_record(s, &e1));
  OK(porta_stream_read(s, by, 0, out, sizeof out));
  OK(porta_stream_sync(s));
  for (int i = 0; i < N; ++i) CHECK(out[i] == 1.0f + 2.0f * (float)i);
  double ms = -1;
  OK(porta_event_elapsed_ms(e0, e1, &ms));
  CHECK(ms >= 0);

  /* A recorded sequence replayed 10 times: y += 2x each time. */
  porta_sequence seq = NULL;
  OK(porta_stream_begin_record(s));
  OK(porta_stream_dispatch(s, k, groups, bufs, 2, &push, sizeof push));
  OK(porta_stream_end_record(s, &seq));
  for (int r = 0; r < 10; ++r) OK(porta_stream_replay(s, seq));
  OK(porta_stream_read(s, by, 0, out, sizeof out));
  OK(porta_stream_sync(s));
  for (int i = 0; i < N; ++i) CHECK(out[i] == 1.0f + 22.0f * (float)i);

  /* Copy and fill. */
  OK(porta_stream_fill(s, by, 0, sizeof y, 0));
  OK(porta_stream_copy(s, bx, 4, by, 8, 8));
  OK(porta_stream_read(s, by, 0, out, sizeof out));
  OK(porta_stream_sync(s));
  CHECK(out[0] == 0 && out[1] == 0 && out[2] == 1.0f && out[3] == 2.0f && out[4] == 0);

  /* A second stream waits for the first one's event, then reads what it wrote. */
  porta_stream s2 = NULL;
  porta_event filled = NULL;
  OK(porta_stream_create(dev, &s2));
  OK(porta_stream_fill(s, by, 0, sizeof y, 0x3f800000u)); /* 1.0f */
  OK(porta_event_record(s, &filled));
  OK(porta_stream_wait_event(s2, filled));
  porta_event_destroy(filled); /* the wait stays */
  OK(porta_stream_read(s2, by, 0, out, sizeof out));
  OK(porta_stream_sync(s2));
  for (int i = 0; i < N; ++i) CHECK(out[i] == 1.0f);
  EXPECT_STATUS(porta_stream_wait_event(s2, NULL), PORTA_ERROR_INVALID_HANDLE,
                "event: the event handle is null");
  porta_stream_destroy(s2);

  /* Handle errors: null, destroyed, wrong kind. */
  EXPECT_STATUS(porta_stream_sync(NULL), PORTA_ERROR_INVALID_HANDLE, "null");
  EXPECT_STATUS(porta_buffer_write(NULL, 0, x, 4), PORTA_ERROR_INVALID_HANDLE, "null");
  porta_buffer gone = NULL;
  OK(porta_buffer_create(dev, 16, &gone));
  porta_buffer_destroy(gone);
  EXPECT_STATUS(porta_buffer_write(gone, 0, x, 4), PORTA_ERROR_INVALID_HANDLE, "not live");
  porta_buffer with_gone[2] = {bx, gone};
  EXPECT_STATUS(porta_stream_dispatch(s, k, groups, with_gone, 2, &push, sizeof push),
                PORTA_ERROR_INVALID_HANDLE, "not live");
  EXPECT_STATUS(porta_stream_sync((porta_stream)bx), PORTA_ERROR_INVALID_HANDLE, "expected a stream handle");
  porta_device none = (porta_device)1;
  EXPECT_STATUS(porta_device_open("nonesuch", &none), PORTA_ERROR_NOT_FOUND, "nonesuch");
  CHECK(none == NULL);
  porta_buffer_destroy(gone); /* a second destroy is refused, not a double free */
  porta_buffer_destroy(NULL);
  EXPECT_STATUS(porta_buffer_create(NULL, 4, &gone), PORTA_ERROR_INVALID_HANDLE, "device handle is null");

  /* A successful call clears the last error. */
  OK(porta_buffer_write(bx, 0, x, 4));
  CHECK(porta_last_error()[0] == '\0');

  check_last_error_is_per_thread(dev);

  /* Destruction order is free: the device handle goes first. */
  porta_device_close(dev);
  porta_stream_destroy(s);
  porta_kernel_destroy(k);
  porta_buffer_destroy(bx);
  porta_buffer_destroy(by);
  porta_event_destroy(e0);
  porta_event_destroy(e1);
  porta_sequence_destroy(seq);
  porta_device_close(NULL);
  return failures ? 1 : 0;
}
