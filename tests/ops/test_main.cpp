#include "support.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
