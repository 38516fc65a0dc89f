/* Built with `pkg-config --cflags --libs porta` against the installed tree. */
#include <stdio.h>

#include <porta/porta.h>

int main(void) {
  porta_device dev = NULL;
  if (porta_device_open("cpu", &dev) != PORTA_SUCCESS) {
    fprintf(stderr, "pkg-config consumer: %s\n", porta_last_error());
    return 1;
  }
  printf("pkg-config consumer: porta %s: ok\n", porta_version());
  porta_device_close(dev);
  return 0;
}
