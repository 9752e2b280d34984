/* The Pod sandbox's pause process (containerd's sandbox image on the local node; see README.md).
 * It holds the Pod's namespaces: sleeps until SIGTERM or SIGINT, and, as PID 1 of a Pod that
 * shares its PID namespace, reaps the children it inherits so no zombie is left behind. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void stop(int sig) {
  (void)sig;
  _exit(0);
}

static void reap(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction sa = {0};
  sa.sa_handler = stop;
  if (sigaction(SIGTERM, &sa, NULL) < 0 || sigaction(SIGINT, &sa, NULL) < 0) return 1;
  sa.sa_handler = reap;
  sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  if (sigaction(SIGCHLD, &sa, NULL) < 0) return 2;
  if (getpid() != 1) fprintf(stderr, "pause: not running as PID 1; reaping only its own children\n");
  for (;;) pause();
}
