/* A forked child that allocates on two threads (forkchurn.h). */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forkchurn.h"

void *forkchurn_alloc(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        void *p = malloc((size_t)(16 + (i % 64) * 48));
        if (!p)
            break;
        memset(p, i, 16);
        free(p);
    }
    return NULL;
}

int forkchurn(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        pthread_t th[2];
        int n = 0;
        for (int k = 0; k < 2; k++)
            n += pthread_create(&th[k], NULL, forkchurn_alloc, NULL) == 0;
        for (int k = 0; k < n; k++)
            pthread_join(th[k], NULL);
        _exit(n == 2 ? 0 : 3);
    }
    if (pid < 0)
        return 0;
    struct timespec ts = {0, 2000000};
    int st = 0, waited = 0; /* a minute at most: an allocation that waits for ever */
    while (waitpid(pid, &st, WNOHANG) == 0 && waited++ < 30000)
        nanosleep(&ts, NULL);
    if (waited > 30000) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        return 0;
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}
