/* vision_testing.h - hooks for tests only. */
#ifndef YZ_VISION_TESTING_H
#define YZ_VISION_TESTING_H

/* Make the nth allocation libyzvision asks for from now on fail (1 = the next); 0 turns it off. */
void yz_vision_testing_fail_allocation(long nth);

#endif
