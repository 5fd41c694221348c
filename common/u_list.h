// SPDX-License-Identifier: MIT
/*
 * u_list: intrusive doubly-linked lists named by a head pointer, the
 * first element's prev and the last one's next NULL. The caller names
 * the link fields (an element may sit on several lists) and holds
 * whatever lock guards the list. headp and e are evaluated once.
 */
#ifndef ZEMEM_U_LIST_H
#define ZEMEM_U_LIST_H

/* e becomes the first element of the list *headp. */
#define U_LIST_PUSH(headp, e, prev, next)                                   \
	do {                                                                \
		__typeof__(e) u_e_ = (e);                                   \
		__typeof__(headp) u_h_ = (headp);                           \
		u_e_->prev = NULL;                                          \
		u_e_->next = *u_h_;                                         \
		if (*u_h_)                                                  \
			(*u_h_)->prev = u_e_;                               \
		*u_h_ = u_e_;                                               \
	} while (0)

/* e, on the list *headp, leaves it; its links become NULL. */
#define U_LIST_UNLINK(headp, e, prev, next)                                 \
	do {                                                                \
		__typeof__(e) u_e_ = (e);                                   \
		if (u_e_->prev)                                             \
			u_e_->prev->next = u_e_->next;                      \
		else                                                        \
			*(headp) = u_e_->next;                              \
		if (u_e_->next)                                             \
			u_e_->next->prev = u_e_->prev;                      \
		u_e_->prev = u_e_->next = NULL;                             \
	} while (0)

#endif
