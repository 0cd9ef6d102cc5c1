/* rules_testing.h - hooks for tests only. */
#ifndef YZ_RULES_TESTING_H
#define YZ_RULES_TESTING_H

/* Make the nth allocation librules asks for from now on fail (1 = the next); 0 turns it off. */
void yz_rules_testing_fail_allocation(long nth);

#endif
