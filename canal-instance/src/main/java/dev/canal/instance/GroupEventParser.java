package dev.canal.instance;

import dev.canal.parse.EventParser;
import dev.canal.parse.SourceStatus;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The parsers of a group instance as one (Canal's GroupEventParser, group-instance.xml): one parser per source,
 * all feeding one group sink. They start in order and stop in reverse; a member that fails to start stops
 * those already started. A client filter replaces the white list of every member.
 */
public final class GroupEventParser implements EventParser {

    private final List<EventParser> members;

    public GroupEventParser(List<EventParser> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a group needs at least one parser");
        }
        this.members = List.copyOf(members);
    }

    public List<EventParser> members() {
        return members;
    }

    @Override
    public List<SourceStatus> sourceStatuses() {
        return members.stream().flatMap(member -> member.sourceStatuses().stream()).toList();
    }

    @Override
    public synchronized void start() {
        Deque<EventParser> started = new ArrayDeque<>();
        for (EventParser member : members) {
            try {
                member.start();
                started.push(member);
            } catch (RuntimeException e) {
                started.forEach(EventParser::stop);
                throw e;
            }
        }
    }

    @Override
    public synchronized void stop() {
        Deque<EventParser> inStopOrder = new ArrayDeque<>();
        members.forEach(inStopOrder::push);
        RuntimeException first = null;
        for (EventParser member : inStopOrder) {
            try {
                member.stop();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public boolean isStart() {
        return members.stream().anyMatch(EventParser::isStart);
    }

    /** Every member that takes a client filter takes this one; the group as a whole always does. */
    @Override
    public boolean replaceTableWhiteList(String regex) {
        for (EventParser member : members) {
            member.replaceTableWhiteList(regex);
        }
        return true;
    }
}
